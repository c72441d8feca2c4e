import { beforeAll, describe, expect, it } from "vitest";
import * as accountRoute from "@/app/api/account/route";
import * as mfaRoute from "@/app/api/account/mfa/route";
import * as authRoute from "@/app/api/auth/route";
import * as foldersRoute from "@/app/api/folders/route";
import * as userRoute from "@/app/api/user/[userId]/route";
import * as resetRoute from "@/app/api/user/[userId]/mfa/route";
import { createAdmin, createTestGroup, createTestUser, latestLog, reloadUser } from "../../helpers/factories";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";
import { enrolKey, enrolOtp, firstStep, signIn } from "./mfa-helpers";
import { getDb } from "@/db";

// The embedded database opens (and migrates) on first use: not inside the first test's time.
beforeAll(() => getDb(), 120_000);

describe("an administrator demands a second factor of one account (mfa_required)", () => {
  it("locks everything but enrolment until a factor is set up", async () => {
    const admin = await createAdmin();
    const user = await createTestUser();
    const set = await call(userRoute.PUT, { method: "PUT", token: admin.token, params: { userId: String(user.id) }, body: { mfa_required: true } });
    expect(set.status, set.text).toBe(200);
    expect(set.body.mfa_required).toBe(true);
    expect((await reloadUser(user.id)).mfaRequired).toBe(true);
    expect((await latestLog("user", user.id, "ADMLLOG_UPDATE"))?.message).toMatch(/mfa_required/);

    const blocked = await call(foldersRoute.GET, { path: "/api/folders", token: user.token });
    expectError(blocked, 401, "mfa_enrollment_required");
    // Enrolment, the account itself and signing out stay open.
    const state = await call(mfaRoute.GET, { path: "/api/account/mfa", token: user.token });
    expect(state.status).toBe(200);
    expect(state.body).toMatchObject({ required: true, enrollment_required: true });
    expect((await call(accountRoute.GET, { path: "/api/account", token: user.token })).body.mfa_required).toBe(true);
    expectError(await call(accountRoute.PUT, { method: "PUT", path: "/api/account", token: user.token, body: { firstname: "X" } }), 401, "mfa_enrollment_required");
    // Only those paths: one that merely starts alike is locked.
    expectError(await call(mfaRoute.GET, { path: "/api/account/mfaX", token: user.token }), 401, "mfa_enrollment_required");
    // The password still opens a session (to enrol), which is as limited.
    const fresh = await signIn(user);
    expect(fresh.status).toBe(200);
    expectError(await call(foldersRoute.GET, { path: "/api/folders", token: fresh.body.token }), 401, "mfa_enrollment_required");

    await enrolOtp(user);
    expect((await call(foldersRoute.GET, { path: "/api/folders", token: user.token })).status).toBe(200);
    expect((await call(mfaRoute.GET, { path: "/api/account/mfa", token: user.token })).body).toMatchObject({ required: true, enrollment_required: false });
    expect((await firstStep(user)).methods).toContain("otp");
  });

  it("is the person's lock, not an administrator's acting as them", async () => {
    const admin = await createAdmin();
    const user = await createTestUser({ mfaRequired: true });
    expect((await call(foldersRoute.GET, { path: "/api/folders", token: admin.token, headers: { AsId: String(user.id) } })).status).toBe(200);
    expectError(await call(foldersRoute.GET, { path: "/api/folders", token: user.token }), 401, "mfa_enrollment_required");
    expect((await call(authRoute.DELETE, { method: "DELETE", path: "/api/auth", token: user.token })).status).toBe(204);
  });

  it("is set by administrators only (managers and users get 403), and refuses non-booleans", async () => {
    const admin = await createAdmin();
    const manager = await createTestUser({ role: 4 });
    const user = await createTestUser();
    await createTestGroup({ members: [user.id], managers: [manager.id] });
    expectError(await call(userRoute.PUT, { method: "PUT", token: manager.token, params: { userId: String(user.id) }, body: { mfa_required: true } }), 403, "forbidden");
    expectError(await call(userRoute.PUT, { method: "PUT", token: user.token, params: { userId: String(user.id) }, body: { mfa_required: true } }), 403, "forbidden");
    expectError(await call(userRoute.PUT, { method: "PUT", token: admin.token, params: { userId: String(user.id) }, body: { mfa_required: "yes" } }), 400, "invalid_request");
    expect((await reloadUser(user.id)).mfaRequired).toBe(false);
    // Directory accounts: a second factor is Coffre's business, so it may change.
    const ldapUser = await createTestUser({ ldap: true });
    expect((await call(userRoute.PUT, { method: "PUT", token: admin.token, params: { userId: String(ldapUser.id) }, body: { mfa_required: true } })).status).toBe(200);
  });
});

describe("DELETE /user/(id)/mfa: an administrator resets an account's second factors", () => {
  it("removes every factor, logs it, and the next sign-in needs only the password", async () => {
    const admin = await createAdmin();
    const user = await createTestUser();
    await enrolOtp(user);
    await enrolKey(user);
    expect((await firstStep(user)).methods).toEqual(["webauthn", "otp", "recovery"]);
    const res = await call(resetRoute.DELETE, { method: "DELETE", token: admin.token, params: { userId: String(user.id) } });
    expect(res.status, res.text).toBe(204);
    const log = await latestLog("user", user.id, "ADMLLOG_UPDATE");
    expect(log).toMatchObject({ userId: admin.id, message: `Reset the second factors of user ${user.login}` });
    expect((await call(mfaRoute.GET, { path: "/api/account/mfa", token: user.token })).body).toMatchObject({ otp: false, sms: false, webauthn: [], recovery_codes_left: 0 });
    expect((await call(accountRoute.GET, { path: "/api/account", token: user.token })).body).toMatchObject({ has_mfa_otp: false, has_mfa_yubikey: false });
    expect((await signIn(user)).status).toBe(200);
  });

  it("is for administrators only, and 404 for unknown accounts", async () => {
    const manager = await createTestUser({ role: 4 });
    const user = await createTestUser();
    await createTestGroup({ members: [user.id], managers: [manager.id] });
    await enrolOtp(user);
    expectError(await call(resetRoute.DELETE, { method: "DELETE", token: user.token, params: { userId: String(user.id) } }), 403, "forbidden");
    expectError(await call(resetRoute.DELETE, { method: "DELETE", token: manager.token, params: { userId: String(user.id) } }), 403, "forbidden");
    expect((await call(mfaRoute.GET, { path: "/api/account/mfa", token: user.token })).body.otp).toBe(true);
    const admin = await createAdmin();
    expectError(await call(resetRoute.DELETE, { method: "DELETE", token: admin.token, params: { userId: "2147483000" } }), 404, "not_found");
    await expectAuthRequired(resetRoute.DELETE, { method: "DELETE", params: { userId: String(user.id) } });
  });
});
