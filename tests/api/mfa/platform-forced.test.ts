import { afterAll, describe, expect, it } from "vitest";
import * as mfaRoute from "@/app/api/account/mfa/route";
import * as configRoute from "@/app/api/config/route";
import * as foldersRoute from "@/app/api/folders/route";
import { createAdmin, createTestUser } from "../../helpers/factories";
import { onOwnDatabase } from "../../helpers/own-database";
import { call, expectError } from "../../helpers/http";
import { enrolOtp, setConfig } from "./mfa-helpers";

// Forcing second factors platform-wide would lock every other test file out of the shared
// database: this file runs on a database of its own (as the route fuzzer does).
onOwnDatabase("coffre_mfa");

afterAll(async () => {
  await setConfig({ mfa_required: false });
});

describe("platform-wide forcing (config mfa_required)", () => {
  it("is set by PUT /config, and every account without a factor may only enrol", async () => {
    const admin = await createAdmin();
    const enrolled = await createTestUser();
    await enrolOtp(enrolled);
    const newcomer = await createTestUser();

    const put = await call(configRoute.PUT, { method: "PUT", path: "/api/config", token: admin.token, body: { mfa_required: true } });
    expect(put.status, put.text).toBe(200);
    expect(put.body.mfa_required).toBe(true);
    await setConfig({});

    expectError(await call(foldersRoute.GET, { path: "/api/folders", token: newcomer.token }), 401, "mfa_enrollment_required");
    expect((await call(mfaRoute.GET, { path: "/api/account/mfa", token: newcomer.token })).body).toMatchObject({ required: true, enrollment_required: true });
    expect((await call(foldersRoute.GET, { path: "/api/folders", token: enrolled.token })).status).toBe(200);
    // Administrators too: they enrol like everyone (PUT /config is not an enrolment endpoint).
    expectError(await call(configRoute.PUT, { method: "PUT", path: "/api/config", token: admin.token, body: { mfa_required: false } }), 401, "mfa_enrollment_required");
    await enrolOtp(admin);
    await enrolOtp(newcomer);
    expect((await call(foldersRoute.GET, { path: "/api/folders", token: newcomer.token })).status).toBe(200);

    expect((await call(configRoute.PUT, { method: "PUT", path: "/api/config", token: admin.token, body: { mfa_required: false } })).status).toBe(200);
    await setConfig({});
    const later = await createTestUser();
    expect((await call(foldersRoute.GET, { path: "/api/folders", token: later.token })).status).toBe(200);
  });
});
