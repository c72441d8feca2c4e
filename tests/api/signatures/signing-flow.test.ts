import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as auditRoute from "@/app/api/signatures/[signatureId]/audit/route";
import * as cancelRoute from "@/app/api/signatures/[signatureId]/cancel/route";
import * as readRoute from "@/app/api/signatures/[signatureId]/route";
import * as signedRoute from "@/app/api/signatures/[signatureId]/signed/route";
import * as activitiesRoute from "@/app/api/signatures/[signatureId]/activities/route";
import * as refuseRoute from "@/app/api/sign/[token]/refuse/route";
import * as smsRoute from "@/app/api/sign/[token]/sms/route";
import * as signDocRoute from "@/app/api/sign/[token]/documents/[documentId]/route";
import * as copyRoute from "@/app/api/sign/[token]/signed/route";
import { getDb } from "@/db";
import { files, fileVersions, signatureActors, signatureRequests, smsMessages } from "@/db/schema";
import { publicSigningResponse, signatureResponse } from "@/lib/contracts/signatures";
import { signingCaPem } from "@/lib/server/signatures/seal/signing-credentials";
import { expireSignatureRequests } from "@/lib/server/signatures/signatures-tick";
import { unique } from "../../helpers/factories";
import { OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { call, expectError } from "../../helpers/http";
import { runJobsUntil } from "../../helpers/jobs";
import { verifyPdf } from "../../helpers/pdfsig";
import { api, draftWithSigners, mailTo, ok, PNG_DATA_URL, publicRead, publicSign, signAll, tokenFromMail, waitDone } from "./signature-helpers";

beforeAll(openDatabase, OPEN_TIMEOUT);

const emailOf = (name: string) => `${unique(name)}@example.test`;
const read = (token: string, id: number) => call(readRoute.GET, { token, params: { signatureId: String(id) } });

describe("a three-signer ordered request, through the public API only", () => {
  it("notifies one signer at a time, completes into a sealed PDF that pdfsig trusts, and kills used links", async () => {
    const emails = [emailOf("first"), emailOf("second"), emailOf("third")];
    const follower = emailOf("follower");
    const { owner, request, doc, folder } = await draftWithSigners({ signers: emails, ordered: 1, extra: [{ type: "follower", infos: { email: follower, first_name: "Fol", last_name: "Lower" } }] });
    const activated = ok(await api.activate(owner, request.id));
    expect(activated.status).toBe("ongoing");
    expect(activated.actors.map((a: { status: string }) => a.status)).toEqual(["notified", "initiated", "initiated", "initiated"]);
    expect(activated.actors[0].link).toMatch(/\/sign\/\d+\.[\w-]+\.[\w-]+$/);
    expect(await mailTo(emails[1])).toBeUndefined();

    for (const [i, email] of emails.entries()) {
      const token = await tokenFromMail(email);
      const view = publicSigningResponse.parse(ok(await publicRead(token)));
      expect(view.actor.email).toBe(email);
      expect(view.documents[0].fields.every((f) => f.signer_id === view.actor.id)).toBe(true);
      // The original PDF while not done.
      const pdf = await call(signDocRoute.GET, { params: { token, documentId: String(doc.id) } });
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get("content-type")).toBe("application/pdf");
      expect(pdf.headers.get("x-content-type-options")).toBe("nosniff");
      expect(pdf.text.startsWith("%PDF-")).toBe(true);
      const done = ok(await signAll(token));
      expect(done.status).toBe("done");
      expectError(await publicSign(token, { signature: { type: "drawn", image: PNG_DATA_URL } }), 410, "signing_done");
      expectError(await publicRead(token), 410, "signing_done");
      if (i < 2) expect(await mailTo(emails[i + 1])).toBeDefined();
    }

    const row = await waitDone(request.id);
    expect(row.completedAt).not.toBeNull();
    const full = signatureResponse.parse(ok(await read(owner.token, request.id)));
    expect(full.status).toBe("done");
    const signedId = full.documents[0].file_signed_id!;
    expect(signedId).toBeGreaterThan(0);
    expect(full.documents[0].sha256_before).toMatch(/^[0-9a-f]{64}$/);
    expect(full.documents[0].sha256_after).not.toBe(full.documents[0].sha256_before);
    const codes = full.activities!.map((a) => a.action);
    expect(codes.filter((c) => c === "signer.signed")).toHaveLength(3);
    expect(codes).toContain("signature_request.done");
    const opened = full.activities!.find((a) => a.action === "signer.link_opened")!;
    expect(opened.ip).toBe("203.0.113.9");
    expect(opened.user_agent).toBe("Mozilla/5.0 SignerTest");
    expect(codes.filter((c) => c === "signer.link_opened")).toHaveLength(3);

    // Stored beside the original, owned by the initiator.
    const db = await getDb();
    const [stored] = await db.select({ name: files.name, folderId: files.folderId, ownerId: files.ownerId }).from(fileVersions).innerJoin(files, eq(files.id, fileVersions.fileId)).where(eq(fileVersions.id, signedId));
    expect(stored).toEqual({ name: "Contract (signed).pdf", folderId: folder.id, ownerId: owner.id });

    const signed = await call(signedRoute.GET, { token: owner.token, params: { signatureId: String(request.id) } });
    expect(signed.status).toBe(200);
    expect(signed.headers.get("content-type")).toBe("application/pdf");
    const bytes = new Uint8Array(await (await signedRoute.GET(new Request("http://coffre.test/x", { headers: { authorization: `Bearer ${owner.token}` } }), { params: Promise.resolve({ signatureId: String(request.id) }) })).arrayBuffer());
    const ca = await signingCaPem(db);
    const report = await verifyPdf(bytes, { trustCaPem: ca });
    expect(report).toContain("Signature is Valid.");
    expect(report).toContain("Total document signed");
    expect(report).toContain("Certificate is Trusted.");
    // One byte changed inside the signed range (the binary comment after the header, so the
    // file still parses): the digest no longer matches.
    const tampered = Buffer.from(bytes);
    const at = tampered.indexOf("\n") + 2;
    expect(tampered[at - 1]).toBe("%".charCodeAt(0));
    tampered[at] ^= 0x01;
    const broken = await verifyPdf(tampered, { trustCaPem: ca });
    expect(broken).not.toContain("Signature is Valid.");
    expect(broken).toMatch(/Digest Mismatch|not valid|Invalid/i);

    // The initiator is told, and the follower gets a copy link that serves the signed PDF.
    expect((await mailTo(owner.email))?.subject).toMatch(/is signed/);
    const copy = await mailTo(follower);
    const copyToken = /\/api\/sign\/([\w.-]+)\/signed/.exec(copy!.text)![1];
    const copied = await call(copyRoute.GET, { params: { token: copyToken } });
    expect(copied.status).toBe(200);
    expect(copied.headers.get("content-type")).toBe("application/pdf");
    // A copy link cannot sign, and a signing link cannot fetch the copy.
    expectError(await publicRead(copyToken), 404);

    const audit = await auditRoute.GET(new Request("http://coffre.test/x", { headers: { authorization: `Bearer ${owner.token}` } }), { params: Promise.resolve({ signatureId: String(request.id) }) });
    expect(audit.status).toBe(200);
    const auditReport = await verifyPdf(new Uint8Array(await audit.arrayBuffer()), { trustCaPem: ca });
    expect(auditReport).toContain("Signature is Valid.");
  }, 120_000);
});

describe("links that die", () => {
  it("a refusal refuses the request, tells everyone and kills every link (410)", async () => {
    const emails = [emailOf("a"), emailOf("b")];
    const { owner, request } = await draftWithSigners({ signers: emails, mode: "parallel" });
    ok(await api.activate(owner, request.id));
    const [t1, t2] = [await tokenFromMail(emails[0]), await tokenFromMail(emails[1])];
    expectError(await call(refuseRoute.POST, { method: "POST", params: { token: t1 }, body: {} }), 400, "invalid_request");
    const refused = ok(await call(refuseRoute.POST, { method: "POST", params: { token: t1 }, body: { reason: "Wrong amount" } }));
    expect(refused.status).toBe("refused");
    expect(refused.refuse_reason).toBe("Wrong amount");
    expectError(await publicRead(t2), 410, "signing_refused");
    expectError(await signAll(t1).catch(() => publicRead(t1)), 410);
    expect((await mailTo(emails[1]))?.subject).toMatch(/refused/);
    expect((await mailTo(owner.email))?.text).toContain("Wrong amount");
    const db = await getDb();
    const [row] = await db.select().from(signatureRequests).where(eq(signatureRequests.id, request.id));
    expect(row.status).toBe("refused");
  });

  it("expiry (the periodic job) gives 410 signing_expired", async () => {
    const email = emailOf("late");
    const { owner, request } = await draftWithSigners({ signers: [email] });
    ok(await api.activate(owner, request.id));
    const token = await tokenFromMail(email);
    const db = await getDb();
    await db.update(signatureRequests).set({ expirationDate: new Date(Date.now() - 1000) }).where(eq(signatureRequests.id, request.id));
    expect(await expireSignatureRequests(db)).toContain(request.id);
    expectError(await publicRead(token), 410, "signing_expired");
    const full = ok(await read(owner.token, request.id));
    expect(full.status).toBe("expired");
    expect(full.activities.map((a: { action: string }) => a.action)).toContain("signature_request.expired");
  });

  it("cancellation gives 410 signing_cancelled, sets deleted_at, and cannot happen twice", async () => {
    const email = emailOf("cancel");
    const { owner, request } = await draftWithSigners({ signers: [email] });
    ok(await api.activate(owner, request.id));
    const token = await tokenFromMail(email);
    const cancelled = ok(await call(cancelRoute.POST, { method: "POST", token: owner.token, params: { signatureId: String(request.id) } }));
    expect(cancelled.status).toBe("cancelled");
    expect(cancelled.deleted_at).not.toBeNull();
    expectError(await publicRead(token), 410, "signing_cancelled");
    const again = await call(cancelRoute.POST, { method: "POST", token: owner.token, params: { signatureId: String(request.id) } });
    expectError(again, 409, "signature_state");
    expect(again.body.details.status).toBe("cancelled");
  });

  it("a forged or altered token is a 404, and a token never reaches another request's document", async () => {
    const email = emailOf("forge");
    const { owner, request } = await draftWithSigners({ signers: [email] });
    ok(await api.activate(owner, request.id));
    const token = await tokenFromMail(email);
    const [id, nonce, mac] = token.split(".");
    expectError(await publicRead(`${id}.${nonce}.${mac.slice(0, -1)}${mac.endsWith("A") ? "B" : "A"}`), 404);
    expectError(await publicRead(`${Number(id) + 1}.${nonce}.${mac}`), 404);
    const other = await draftWithSigners({ signers: [emailOf("other")] });
    expectError(await call(signDocRoute.GET, { params: { token, documentId: String(other.doc.id) } }), 404);
  });
});

describe("signing input", () => {
  it("names a missing required field, refuses a bad image and bidi text", async () => {
    const email = emailOf("fields");
    const { owner, request, doc, actors } = await draftWithSigners({ signers: [email] });
    const text = ok(await api.addField(owner, request.id, doc.id, { type: "text", page: 1, x: 300, y: 300, signer_id: actors[0].id, question: "City" }), 201);
    const box = ok(await api.addField(owner, request.id, doc.id, { type: "checkbox", page: 1, x: 300, y: 400, signer_id: actors[0].id }), 201);
    ok(await api.activate(owner, request.id));
    const token = await tokenFromMail(email);
    const drawn = { type: "drawn", image: PNG_DATA_URL };
    let res = await publicSign(token, { fields: [{ id: box.id, value: true }], signature: drawn });
    expectError(res, 400, "invalid_request");
    expect(res.body.details[0].path).toBe(`fields.${text.id}`);
    expect(res.body.error).toContain("City");
    res = await publicSign(token, { fields: [{ id: text.id, value: "Lyon" }], signature: drawn });
    expectError(res, 400);
    expect(res.body.details[0].path).toBe(`fields.${box.id}`);
    expectError(await publicSign(token, { fields: [{ id: text.id, value: "Lyon" }, { id: box.id, value: true }] }), 400);
    expectError(await publicSign(token, { fields: [{ id: text.id, value: "Lyon" }, { id: box.id, value: true }], signature: { type: "drawn", image: "data:image/png;base64,R0lGODlhAQABAAAAACw=" } }), 400);
    expectError(await publicSign(token, { fields: [{ id: text.id, value: "Ly\u202Eon" }, { id: box.id, value: true }], signature: drawn }), 400);
    expectError(await publicSign(token, { fields: [{ id: text.id, value: "Lyon" }, { id: box.id, value: true }], signature: { type: "typed", text: "x".repeat(101) } }), 400);
    expectError(await publicSign(token, { fields: [{ id: 999999, value: "x" }], signature: drawn }), 400);
    const done = ok(await publicSign(token, { fields: [{ id: text.id, value: "Lyon" }, { id: box.id, value: true }], signature: { type: "typed", text: "Ada Signer" } }));
    expect(done.status).toBe("done");
    const full = ok(await read(owner.token, request.id));
    const values = full.documents[0].fields.map((f: { id: number; value: unknown }) => [f.id, f.value]);
    expect(values).toContainEqual([text.id, "Lyon"]);
    expect(values).toContainEqual([box.id, true]);
  });

  it("advanced level: a mailed one-time code (no phone), wrong codes refused, then signed", async () => {
    const email = emailOf("adv");
    const { owner, request } = await draftWithSigners({ signers: [email], level: "advanced_electronic_signature" });
    ok(await api.activate(owner, request.id));
    const token = await tokenFromMail(email);
    const view = ok(await publicRead(token));
    expect(view.actor.code_required).toBe(true);
    expect(view.actor.code_channel).toBe("email");
    expectError(await signAll(token), 400, "invalid_request");
    const sent = ok(await call(smsRoute.POST, { method: "POST", params: { token } }));
    expect(sent.channel).toBe("email");
    expectError(await call(smsRoute.POST, { method: "POST", params: { token } }), 429);
    const code = /is (\d{6})/.exec((await mailTo(email, "%code%"))!.text)![1];
    const wrong = code === "000000" ? "111111" : "000000";
    expectError(await signAll(token, { sms_code: wrong }), 403);
    const done = ok(await signAll(token, { sms_code: code }));
    expect(done.status).toBe("done");
  });

  it("five wrong codes kill the code: even the right one is then refused (429)", async () => {
    const email = emailOf("brute");
    const { owner, request } = await draftWithSigners({ signers: [email], level: "advanced_electronic_signature" });
    ok(await api.activate(owner, request.id));
    const token = await tokenFromMail(email);
    ok(await call(smsRoute.POST, { method: "POST", params: { token } }));
    const code = /is (\d{6})/.exec((await mailTo(email, "%code%"))!.text)![1];
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++) expect([403, 429]).toContain((await signAll(token, { sms_code: wrong })).status);
    expectError(await signAll(token, { sms_code: code }), 429, "too_many_requests");
  });

  it("an actor with a phone gets the code by SMS", async () => {
    const email = emailOf("phone");
    const phone = `+3361${Math.floor(Math.random() * 1e7).toString().padStart(7, "0")}`;
    const { owner, request } = await draftWithSigners({ signers: [email], phones: [phone] });
    ok(await api.activate(owner, request.id));
    const token = await tokenFromMail(email);
    expect(ok(await publicRead(token)).actor.code_channel).toBe("sms");
    expect(ok(await call(smsRoute.POST, { method: "POST", params: { token } })).channel).toBe("sms");
    const db = await getDb();
    const [sms] = await db.select().from(smsMessages).where(eq(smsMessages.to, phone));
    const code = /is (\d{6})/.exec(sms.body)![1];
    expect(ok(await signAll(token, { sms_code: code })).status).toBe("done");
  });

  it("an approver approves with approve: true", async () => {
    const email = emailOf("signer");
    const approver = emailOf("approver");
    const { owner, request } = await draftWithSigners({ signers: [email], ordered: 1, extra: [{ type: "approver", infos: { email: approver, first_name: "Ap", last_name: "Prover" } }] });
    ok(await api.activate(owner, request.id));
    ok(await signAll(await tokenFromMail(email)));
    const token = await tokenFromMail(approver);
    expectError(await publicSign(token, { signature: { type: "drawn", image: PNG_DATA_URL } }), 400);
    expect(ok(await publicSign(token, { approve: true })).status).toBe("done");
    await waitDone(request.id);
    const full = ok(await read(owner.token, request.id));
    expect(full.activities.map((a: { action: string }) => a.action)).toContain("approver.approved");
  }, 60_000);
});

describe("modes", () => {
  it("parallel: every signer is notified at activation, done when all signed", async () => {
    const emails = [emailOf("p1"), emailOf("p2")];
    const { owner, request } = await draftWithSigners({ signers: emails, mode: "parallel" });
    const activated = ok(await api.activate(owner, request.id));
    expect(activated.actors.map((a: { status: string }) => a.status)).toEqual(["notified", "notified"]);
    ok(await signAll(await tokenFromMail(emails[1])));
    ok(await signAll(await tokenFromMail(emails[0])));
    await waitDone(request.id);
  }, 60_000);

  it("parallel signers signing at the same moment still complete the request once", async () => {
    const emails = [emailOf("c1"), emailOf("c2"), emailOf("c3")];
    const { owner, request } = await draftWithSigners({ signers: emails, mode: "parallel" });
    ok(await api.activate(owner, request.id));
    const tokens = await Promise.all(emails.map(tokenFromMail));
    const results = await Promise.all(tokens.map((t) => publicSign(t, { signature: { type: "drawn", image: PNG_DATA_URL } })));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    await waitDone(request.id);
  }, 60_000);

  it("mass: one child per signer, the parent done when every child is finished", async () => {
    const emails = [emailOf("m1"), emailOf("m2")];
    const { owner, request } = await draftWithSigners({ signers: emails, mode: "mass" });
    const activated = ok(await api.activate(owner, request.id));
    expect(activated.is_masses).toBe(1);
    expect(activated.children).toHaveLength(2);
    for (const child of activated.children) {
      expect(child.signature_parent_id).toBe(request.id);
      expect(child.actors).toHaveLength(1);
      expect(child.documents[0].fields).toHaveLength(1);
      expect(child.documents[0].fields[0].signer_id).toBe(child.actors[0].id);
    }
    ok(await signAll(await tokenFromMail(emails[0])));
    const refuse = await tokenFromMail(emails[1]);
    ok(await call(refuseRoute.POST, { method: "POST", params: { token: refuse }, body: { reason: "No" } }));
    const db = await getDb();
    await runJobsUntil(["signatures.complete"], async () => {
      const [row] = await db.select().from(signatureRequests).where(eq(signatureRequests.id, request.id));
      return row.status === "done" ? row : undefined;
    }, 60_000);
    const signed = await call(signedRoute.GET, { token: owner.token, params: { signatureId: String(request.id) } });
    expect(signed.status).toBe(200);
  }, 90_000);
});

describe("received requests and internal signers", () => {
  it("an internal signer finds the request in received, with their own link only", async () => {
    const { createTestUser } = await import("../../helpers/factories");
    const colleague = await createTestUser();
    const external = emailOf("ext");
    const { owner, request, doc } = await draftWithSigners({ signers: [external], mode: "parallel" });
    const actor = ok(await api.addActor(owner, request.id, { type: "signer", id: colleague.id }), 201);
    expect(actor.user_id).toBe(colleague.id);
    ok(await api.addField(owner, request.id, doc.id, { type: "signature", page: 1, x: 300, y: 600, signer_id: actor.id }), 201);
    ok(await api.activate(owner, request.id));
    const seen = ok(await read(colleague.token, request.id));
    const mine = seen.actors.find((a: { id: number }) => a.id === actor.id);
    const theirs = seen.actors.find((a: { id: number }) => a.id !== actor.id);
    expect(mine.link).toMatch(/\/sign\//);
    expect(theirs.link).toBeNull();
    const token = /\/sign\/(.+)$/.exec(mine.link)![1];
    expect(ok(await signAll(token)).status).toBe("done");
    const db = await getDb();
    const [row] = await db.select().from(signatureActors).where(eq(signatureActors.id, actor.id));
    expect(row.status).toBe("done");
    const activities = ok(await call(activitiesRoute.GET, { token: owner.token, params: { signatureId: String(request.id) } }));
    expect(activities.objects.some((a: { action: string; from: number }) => a.action === "signer.signed" && a.from === actor.id)).toBe(true);
    expectError(await call(activitiesRoute.GET, { token: colleague.token, params: { signatureId: String(request.id) } }), 404);
  });
});
