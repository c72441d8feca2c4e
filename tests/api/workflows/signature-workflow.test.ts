import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as smsRoute from "@/app/api/sign/[token]/sms/route";
import * as refuseRoute from "@/app/api/sign/[token]/refuse/route";
import * as uploadRoute from "@/app/api/workflow/instance/[key]/upload/route";
import { getDb } from "@/db";
import { files, signatureActors, signatureFields, signatureRequests, workflowInstances } from "@/db/schema";
import { workflowInstanceResponse } from "@/lib/contracts/workflows";
import { createTestUser, unique } from "../../helpers/factories";
import { OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { allRightsBut, grantRight, uploadText } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { runJobsUntil } from "../../helpers/jobs";
import { deliverTo, withLocalSmtp } from "../../helpers/smtp";
import { multipartBody } from "../../helpers/upload-factories";
import { makePdf, mailTo, ok, pdfScene, publicRead, signAll, tokenFromMail as signingTokenFromMail } from "../signatures/signature-helpers";
import { address, cancel, documentToken, post, read, readFile, start, tokenFromMail, transition } from "./workflow-helpers";

const smtp = withLocalSmtp(openDatabase, OPEN_TIMEOUT);

const signatureBody = (flux: 3 | 5, versionId: number, signers: Record<string, unknown>[], extra: Record<string, unknown> = {}) => ({
  flux: { id: flux },
  properties: {
    objects: [{ type: "file", id: versionId }],
    signatures: signers,
    signature_fields: signers.map((_, i) => ({ x: 60, y: 100 + i * 90, page: 1, signerIndex: i, document: 0 })),
    ...extra,
  },
});

async function waitSigned(signatureId: number) {
  const db = await getDb();
  return runJobsUntil(["signatures.complete"], async () => {
    const [row] = await db.select().from(signatureRequests).where(eq(signatureRequests.id, signatureId));
    return row.status === "done" ? row : undefined;
  }, 60_000);
}

function upload(token: string, name: string, data: Uint8Array) {
  const { body, contentType } = multipartBody([{ name: "targetFile", filename: name, data }]);
  return call(uploadRoute.POST, { method: "POST", params: { key: token }, rawBody: body, headers: { "content-type": contentType, "x-forwarded-for": "198.51.100.4", "user-agent": "ScannerApp/1" } });
}

describe("flux 3 and 5: signatures through our own signer", () => {
  it("flux 3 creates and activates a signature request (electronic level, 200x70 stamps); the instance follows it to signed", async () => {
    const { owner, versionId, fileId } = await pdfScene();
    const [first, second] = [address(), address()];
    const instance = await start(owner, signatureBody(3, versionId, [{ email: first, firstname: "Ada", lastname: "First" }, { email: second }], { send_copy: true }));
    expect(instance).toMatchObject({ flux: { id: 3 }, state: { id: "waiting_signature", name: "workflow.state.waiting_signature" }, is_closed: false, validators: [] });
    expect(instance.signature_id).toEqual(expect.any(Number));

    const db = await getDb();
    const [request] = await db.select().from(signatureRequests).where(eq(signatureRequests.id, instance.signature_id!));
    expect(request).toMatchObject({ status: "ongoing", level: "electronic_signature", userId: owner.id, sendCopy: true });
    const actors = await db.select().from(signatureActors).where(eq(signatureActors.signatureId, request.id));
    expect(actors.map((a) => [a.email, a.type, a.firstName, a.lastName])).toEqual(expect.arrayContaining([[first, "signer", "Ada", "First"], [second, "signer", expect.any(String), expect.any(String)]]));
    const fields = await db.select().from(signatureFields).innerJoin(signatureActors, eq(signatureActors.id, signatureFields.actorId)).where(eq(signatureActors.signatureId, request.id));
    expect(fields.map((f) => [f.signature_actors.email, f.signature_fields.type, f.signature_fields.x, f.signature_fields.y, f.signature_fields.width, f.signature_fields.height])).toEqual(
      expect.arrayContaining([[first, "signature", 60, 100, 200, 70], [second, "signature", 60, 190, 200, 70]]),
    );
    expect((await readFile(owner.token, versionId)).body.workflow).toMatchObject({ id: instance.id, flux: 3, state: { id: "waiting_signature" }, is_closed: false });

    for (const email of [first, second]) ok(await signAll(await signingTokenFromMail(email)));
    await waitSigned(request.id);
    // The file shows the outcome at once, read from the request; reading the instance records it.
    expect((await readFile(owner.token, versionId)).body.workflow).toMatchObject({ state: { id: "signed" }, is_closed: true });
    const done = await read(instance.id, owner.token);
    expect(done.status, done.text).toBe(200);
    expect(workflowInstanceResponse.strict().parse(done.body)).toMatchObject({ state: { id: "signed" }, is_closed: true });
    const [stored] = await db.select().from(workflowInstances).where(eq(workflowInstances.id, instance.id));
    expect(stored.closedAt).not.toBeNull();
    const signed = await db.select().from(files).where(and(eq(files.folderId, (await db.select().from(files).where(eq(files.id, fileId)))[0].folderId)));
    expect(signed.map((f) => f.name)).toContain("Contract (signed).pdf");
  });

  it("flux 5 asks the advanced level (a one-time code before signing) and needs first and last names", async () => {
    const { owner, versionId } = await pdfScene();
    const email = address();
    expectError(await post(owner.token, signatureBody(5, versionId, [{ email, firstname: "Ada" }])), 400, "invalid_request");
    const instance = await start(owner, signatureBody(5, versionId, [{ email, firstname: "Ada", lastname: "Lovelace" }]));
    const db = await getDb();
    const [request] = await db.select().from(signatureRequests).where(eq(signatureRequests.id, instance.signature_id!));
    expect(request.level).toBe("advanced_electronic_signature");
    const token = await signingTokenFromMail(email);
    expect(ok(await publicRead(token)).actor.code_required).toBe(true);
    ok(await call(smsRoute.POST, { method: "POST", params: { token } }));
    const code = /is (\d{6})/.exec((await mailTo(email, "%code%"))!.text)![1];
    ok(await signAll(token, { sms_code: code }));
    await waitSigned(request.id);
    expect((await read(instance.id, owner.token)).body).toMatchObject({ state: { id: "signed" }, is_closed: true });
  });

  it("a signer's refusal refuses the instance; cancelling an instance cancels its request (links 410)", async () => {
    const { owner, versionId } = await pdfScene();
    const [a, b] = [address(), address()];
    const refused = await start(owner, signatureBody(3, versionId, [{ email: a }]));
    ok(await call(refuseRoute.POST, { method: "POST", params: { token: await signingTokenFromMail(a) }, body: { reason: "Wrong amount" } }));
    expect((await read(refused.id, owner.token)).body).toMatchObject({ state: { id: "refused" }, is_closed: true });
    expectError(await cancel(owner.token, refused.id), 409, "conflict");

    const cancelled = await start(owner, signatureBody(3, versionId, [{ email: b }]));
    const token = await signingTokenFromMail(b);
    const res = await cancel(owner.token, cancelled.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ state: { id: "cancelled" }, is_closed: true });
    const db = await getDb();
    const [request] = await db.select().from(signatureRequests).where(eq(signatureRequests.id, cancelled.signature_id!));
    expect(request.status).toBe("cancelled");
    expectError(await publicRead(token), 410, "signing_cancelled");
  });

  it("refuses what cannot be signed and leaves nothing behind: not a PDF (415), no share right (403)", async () => {
    const { owner, folder } = await pdfScene();
    const text = await uploadText(owner, folder.id, `${unique("notes_")}.txt`, "not a pdf");
    const db = await getDb();
    const before = (await db.select().from(workflowInstances).where(eq(workflowInstances.ownerId, owner.id))).length;
    expectError(await post(owner.token, signatureBody(3, text.version.id, [{ email: address() }])), 415);
    expect((await db.select().from(workflowInstances).where(eq(workflowInstances.ownerId, owner.id))).length).toBe(before);
    expect((await db.select().from(signatureRequests).where(eq(signatureRequests.userId, owner.id))).length).toBe(0);

    const { versionId } = await pdfScene();
    const colleague = await createTestUser();
    const shared = await pdfScene();
    await grantRight(shared.folder.id, colleague.id, allRightsBut("share"));
    expectError(await post(colleague.token, signatureBody(3, shared.versionId, [{ email: address() }])), 403, "forbidden");
    expectError(await post(colleague.token, signatureBody(3, versionId, [{ email: address() }])), 403);
  });
});

describe("flux 2: a scanned handwritten signature", () => {
  it("mails the signer a link to download the document and send back the signed scan, stored beside the original", async () => {
    const { owner, versionId, folder } = await pdfScene({ name: "Lease.pdf" });
    const signer = address();
    const instance = await start(owner, { flux: { id: 2 }, properties: { objects: [{ type: "file", id: versionId }], signatures: [{ email: signer, firstname: "Sam", lastname: "Scan" }], send_copy: true } });
    expect(instance).toMatchObject({ flux: { id: 2 }, state: { id: "waiting_signature" }, validators: [{ type: "signer", email: signer, name: "Sam Scan" }] });
    const { token, mail } = await tokenFromMail(smtp(), signer);
    expect(mail.text).toContain("scanned signed PDF");

    const view = await read(token);
    expect(view.body).toMatchObject({ me: { type: "signer" }, transitions_available: { signature: [{ id: "refused" }] }, documents: [{ id: versionId, name: "Lease.pdf", signed_id: null }] });
    // Signing happens by sending the scan, never by a bare transition.
    expectError(await transition(token, { state: "signed" }), 409, "conflict");
    expect((await documentToken(token, versionId, "download")).status).toBe(200);

    expectError(await upload(token, "scan.pdf", new TextEncoder().encode("<html>not a pdf</html>")), 415);
    expectError(await call(uploadRoute.POST, { method: "POST", params: { key: token }, body: {} }), 415);
    const res = await upload(token, "scan.pdf", await makePdf(2));
    expect(res.status, res.text).toBe(200);
    const closed = workflowInstanceResponse.strict().parse(res.body);
    expect(closed).toMatchObject({ state: { id: "signed", name: "workflow.state.signed" }, is_closed: true, me: { decision: "signed" } });
    expect(closed.documents[0]).toMatchObject({ name: "Lease.pdf", signed_name: "Lease (signed).pdf", signed_id: expect.any(Number) });

    const db = await getDb();
    const [scan] = await db.select().from(files).where(and(eq(files.folderId, folder.id), eq(files.name, "Lease (signed).pdf")));
    expect(scan.ownerId).toBe(owner.id);
    expect((await readFile(owner.token, versionId)).body.workflow).toMatchObject({ id: instance.id, flux: 2, state: { id: "signed" }, is_closed: true });
    await deliverTo(smtp(), owner.email, (m) => m.text.includes("is closed"));
    // The copy link carries the original and the signed scan.
    const copy = await deliverTo(smtp(), signer, (m) => m.text.includes("/s/"));
    expect(copy.text).toContain("Lease.pdf");
    // Closed: the link is dead, a second scan is refused.
    expectError(await upload(token, "again.pdf", await makePdf(1)), 410, "workflow_closed");
  });

  it("lets the signer refuse; a validator's link cannot upload; bad links cannot either", async () => {
    const { owner, versionId } = await pdfScene();
    const signer = address();
    await start(owner, { flux: { id: 2 }, properties: { objects: [{ type: "file", id: versionId }], signatures: [{ email: signer }] } });
    const { token } = await tokenFromMail(smtp(), signer);
    const refused = await transition(token, { state: "refused", comment: "I will not sign" });
    expect(refused.body).toMatchObject({ state: { id: "refused" }, is_closed: true });

    const validator = address();
    await start(owner, { flux: { id: 1 }, properties: { objects: [{ type: "file", id: versionId }], validation: { externe: [{ email: validator }] } } });
    const validatorToken = (await tokenFromMail(smtp(), validator)).token;
    expectError(await upload(validatorToken, "scan.pdf", await makePdf(1)), 409, "conflict");
    expectError(await upload(`${validatorToken.split(".")[0]}.${"B".repeat(43)}`, "scan.pdf", await makePdf(1)), 404, "link_not_found");
    expectError(await call(uploadRoute.POST, { method: "POST", params: { key: "12" } }), 400, "invalid_request");
  });
});
