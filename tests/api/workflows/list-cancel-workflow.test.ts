import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as previewContentRoute from "@/app/api/preview/[fileId]/content/route";
import * as oneRoute from "@/app/api/workflow/instance/[key]/route";
import * as listRoute from "@/app/api/workflow/instances/route";
import * as validatorsRoute from "@/app/api/workflow/validators/route";
import { getDb } from "@/db";
import { users } from "@/db/schema";
import { workflowInstanceResponse } from "@/lib/contracts/workflows";
import { createAdmin, createTestUser, latestLog, unique } from "../../helpers/factories";
import { createFileScene, OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { uploadText } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";
import { deliverTo, withLocalSmtp } from "../../helpers/smtp";
import { address, cancel, documentToken, flux1, list, read, readFile, start, tokenFromMail, transition } from "./workflow-helpers";

const smtp = withLocalSmtp(openDatabase, OPEN_TIMEOUT);

describe("GET /workflow/instances", () => {
  it("lists the caller's instances, newest first, in the envelope; role=validator lists those they are asked to validate", async () => {
    const { owner, version } = await createFileScene();
    const colleague = await createTestUser();
    const first = await start(owner, flux1(version.id, { interne: [{ id: colleague.id }] }));
    const second = await start(owner, flux1(version.id, { externe: [{ email: address() }] }));

    const res = await list(owner.token);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ offset_start: 0, nb_objets: 2, nb_objects: 2, nb_total_objects: 2 });
    expect(res.body.objects.map((o: { id: number }) => o.id)).toEqual([second.id, first.id]);
    for (const o of res.body.objects) workflowInstanceResponse.strict().parse(o);
    const paged = await list(owner.token, { offset_start: "1", nb_objects: "1" });
    expect(paged.body).toMatchObject({ offset_start: 1, nb_objects: 1, nb_total_objects: 2, objects: [{ id: first.id }] });

    const asked = await list(colleague.token, { role: "validator" });
    expect(asked.body.nb_total_objects).toBe(1);
    expect(asked.body.objects[0]).toMatchObject({ id: first.id, me: { user_id: colleague.id }, transitions_available: { validation: [{ id: "validated" }, { id: "refused" }] } });
    expect(asked.body.objects[0].validators).toBeUndefined();
    // The colleague started nothing; the owner is asked nothing.
    expect((await list(colleague.token)).body.nb_total_objects).toBe(0);
    expect((await list(owner.token, { role: "validator" })).body.nb_total_objects).toBe(0);
    expectError(await list(owner.token, { role: "boss" }), 400, "invalid_request");
    expectError(await list(owner.token, { nb_objects: "-1" }), 400, "invalid_request");
  });

  it("needs a token", async () => {
    await expectAuthRequired(listRoute.GET, {});
  });
});

describe("DELETE /workflow/instance/(id)", () => {
  it("cancels an open instance: state cancelled, links dead (410), those still awaited told, the file released", async () => {
    const { owner, version } = await createFileScene();
    const [a, b] = [address(), address()];
    const instance = await start(owner, flux1(version.id, { externe: [{ email: a }, { email: b }] }));
    const tokenA = (await tokenFromMail(smtp(), a)).token;
    const tokenB = (await tokenFromMail(smtp(), b)).token;
    expect((await transition(tokenA, { state: "validated" })).status).toBe(200);
    expect((await readFile(owner.token, version.id)).body.workflow).toMatchObject({ id: instance.id, is_closed: false, state: { id: "waiting_validation" } });

    const res = await cancel(owner.token, instance.id);
    expect(res.status, res.text).toBe(200);
    expect(workflowInstanceResponse.strict().parse(res.body)).toMatchObject({ id: instance.id, state: { id: "cancelled", name: "workflow.state.cancelled" }, is_closed: true });
    expect((await latestLog("workflow", instance.id))?.type).toBe("ADMLLOG_DELETE");
    expectError(await read(tokenB), 410, "workflow_cancelled");
    expectError(await transition(tokenB, { state: "validated" }), 410, "workflow_cancelled");
    const told = await deliverTo(smtp(), b, (m) => m.text.includes("cancelled"));
    expect(told.text).toContain("no longer works");
    expect((await readFile(owner.token, version.id)).body.workflow).toBeUndefined();
    // Still listed, as cancelled; a second cancellation is a conflict.
    expect((await list(owner.token)).body.objects[0]).toMatchObject({ id: instance.id, state: { id: "cancelled" } });
    expectError(await cancel(owner.token, instance.id), 409, "conflict");
  });

  it("is the initiator's (or an administrator's): others get 404; bad ids 400; no token 401", async () => {
    const { owner, other, version } = await createFileScene();
    const colleague = await createTestUser();
    const instance = await start(owner, flux1(version.id, { interne: [{ id: colleague.id }] }));
    expectError(await cancel(other.token, instance.id), 404, "not_found");
    expectError(await cancel(colleague.token, instance.id), 404, "not_found");
    expectError(await cancel(owner.token, 2_000_000_000), 404, "not_found");
    expectError(await call(oneRoute.DELETE, { method: "DELETE", token: owner.token, params: { key: "abc" } }), 400, "invalid_request");
    await expectAuthRequired(oneRoute.DELETE, { method: "DELETE", params: { key: String(instance.id) } });
    const admin = await createAdmin();
    expect((await cancel(admin.token, instance.id)).status).toBe(200);
  });
});

describe("POST /workflow/instance/(token)/documents/(fileId)/(type)", () => {
  it("gives a validator a file token for the instance's documents only, which the preview route honours", async () => {
    const { owner, folder, version } = await createFileScene({ text: "the document" });
    const outside = await uploadText(owner, folder.id, `${unique("other_")}.txt`, "not in the instance");
    const to = address();
    await start(owner, flux1(version.id, { externe: [{ email: to }] }));
    const token = (await tokenFromMail(smtp(), to)).token;

    const res = await documentToken(token, version.id, "preview");
    expect(res.status, res.text).toBe(200);
    const content = await call(previewContentRoute.GET, { params: { fileId: String(version.id) }, query: { token: res.body.token } });
    expect(content.status, content.text).toBe(200);
    expect(content.text).toBe("the document");
    expect((await documentToken(token, version.id, "download")).status).toBe(200);

    expectError(await documentToken(token, outside.version.id, "preview"), 404, "not_found");
    expectError(await documentToken(token, version.id, "edit"), 400, "invalid_request");
    expectError(await documentToken(`${token.split(".")[0]}.${"A".repeat(43)}`, version.id, "preview"), 404, "link_not_found");
    const other = await createTestUser();
    const instance = (await list(owner.token)).body.objects[0];
    expectError(await documentToken(instance.id, version.id, "preview", other.token), 404, "not_found");
    expectError(await documentToken(instance.id, version.id, "preview"), 401, "unauthorized");
    expect((await documentToken(instance.id, version.id, "preview", owner.token)).status).toBe(200);
  });
});

describe("GET /workflow/validators", () => {
  it("finds live, active accounts by name or address (3 characters at least, 10 at most), never deleted or inactive ones", async () => {
    const tag = unique("zq");
    const found = await createTestUser({ firstname: "Valentina", lastname: `${tag}Ok` });
    const inactive = await createTestUser({ lastname: `${tag}Off`, active: false });
    const db = await getDb();
    const gone = await createTestUser({ lastname: `${tag}Gone` });
    await db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, gone.id));
    const res = await call(validatorsRoute.GET, { token: found.token, query: { search: tag } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual([{ id: String(found.id), name: `Valentina ${tag}Ok`, email: found.email }]);
    expect(res.body.map((u: { id: string }) => u.id)).not.toContain(String(inactive.id));
    expectError(await call(validatorsRoute.GET, { token: found.token, query: { search: "ab" } }), 400, "invalid_request");
    const external = await createTestUser({ role: 1 });
    expectError(await call(validatorsRoute.GET, { token: external.token, query: { search: tag } }), 403, "forbidden");
    await expectAuthRequired(validatorsRoute.GET, { query: { search: tag } });
  });
});
