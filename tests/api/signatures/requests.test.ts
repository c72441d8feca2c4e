import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as exportRoute from "@/app/api/signatures/export/route";
import * as receivedExportRoute from "@/app/api/signatures/received/export/route";
import * as receivedRoute from "@/app/api/signatures/received/route";
import * as listRoute from "@/app/api/signatures/route";
import * as templatesRoute from "@/app/api/signatures/templates/route";
import * as oneRoute from "@/app/api/signatures/[signatureId]/route";
import * as actorRoute from "@/app/api/signatures/[signatureId]/actors/[actorId]/route";
import * as remindOneRoute from "@/app/api/signatures/[signatureId]/actors/[actorId]/remind/route";
import * as remindAllRoute from "@/app/api/signatures/[signatureId]/actors/remind/route";
import * as actorsRoute from "@/app/api/signatures/[signatureId]/actors/route";
import * as activateRoute from "@/app/api/signatures/[signatureId]/activate/route";
import * as activitiesExportRoute from "@/app/api/signatures/[signatureId]/activities/export/route";
import * as activitiesRoute from "@/app/api/signatures/[signatureId]/activities/route";
import * as auditRoute from "@/app/api/signatures/[signatureId]/audit/route";
import * as cancelRoute from "@/app/api/signatures/[signatureId]/cancel/route";
import * as documentRoute from "@/app/api/signatures/[signatureId]/documents/[documentId]/route";
import * as fieldRoute from "@/app/api/signatures/[signatureId]/documents/[documentId]/fields/[fieldId]/route";
import * as fieldsRoute from "@/app/api/signatures/[signatureId]/documents/[documentId]/fields/route";
import * as signedRoute from "@/app/api/signatures/[signatureId]/signed/route";
import { getDb } from "@/db";
import { signatureActors, signatureRequests } from "@/db/schema";
import { signatureListResponse, signatureResponse } from "@/lib/contracts/signatures";
import { sendDueReminders } from "@/lib/server/signatures/signatures-tick";
import { createAdmin, createTestUser, unique } from "../../helpers/factories";
import { OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { grantRight, createFolder } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { uploadBytes } from "../../helpers/upload-factories";
import { encryptedPdf, damagedPdf } from "../../helpers/pdf-fixtures";
import { api, draftWithSigners, makePdf, mailTo, ok, pdfScene, signer } from "./signature-helpers";

beforeAll(openDatabase, OPEN_TIMEOUT);

const p = (signatureId: number, more: Record<string, number> = {}) => Object.fromEntries(Object.entries({ signatureId, ...more }).map(([k, v]) => [k, String(v)]));

describe("POST /signatures, GET /signatures/(id), PUT, DELETE", () => {
  it("creates a draft, reads it, changes it while draft, deletes it", async () => {
    const { owner } = await pdfScene();
    const created = signatureResponse.parse(ok(await api.create(owner, { name: "Lease 2026", ordered: 1, reminder_day: 3, send_copy: true }), 201));
    expect(created).toMatchObject({ name: "Lease 2026", status: "draft", ordered: 1, mode: "standard", level: "electronic_signature", reminder_day: 3, send_copy: 1, user_id: owner.id });
    const read = ok(await call(oneRoute.GET, { token: owner.token, params: p(created.id) }));
    expect(read.activities).toEqual([]);
    const updated = ok(await call(oneRoute.PUT, { method: "PUT", token: owner.token, params: p(created.id), body: { name: "Lease 2027", mode: "parallel", data: { reminder_settings: { interval_in_days: 2, max_occurences: 3 } } } }));
    expect(updated).toMatchObject({ name: "Lease 2027", mode: "parallel", reminder_settings: { interval_in_days: 2, max_occurences: 3 } });
    expect((await call(oneRoute.DELETE, { method: "DELETE", token: owner.token, params: p(created.id) })).status).toBe(204);
    expectError(await call(oneRoute.GET, { token: owner.token, params: p(created.id) }), 404);
  });

  it("refuses bad input: no name, unknown mode, past expiry, a qualified level (422)", async () => {
    const { owner } = await pdfScene();
    expectError(await api.create(owner, {}), 400, "invalid_request");
    expectError(await api.create(owner, { name: "x", mode: "solo" }), 400);
    expectError(await api.create(owner, { name: "x", expiration_date: "2001-01-01T00:00:00Z" }), 400);
    expectError(await api.create(owner, { name: "x\u202E" }), 400);
    const q = await api.create(owner, { name: "x", level: "qualified_electronic_signature" });
    expectError(q, 422, "level_unsupported");
  });

  it("another user gets 404 on read, update and delete; an administrator may read; no token is 401", async () => {
    const { owner } = await pdfScene();
    const other = await createTestUser();
    const admin = await createAdmin();
    const { id } = ok(await api.create(owner, { name: "Private" }), 201);
    expectError(await call(oneRoute.GET, { token: other.token, params: p(id) }), 404);
    expectError(await call(oneRoute.PUT, { method: "PUT", token: other.token, params: p(id), body: { name: "Mine" } }), 404);
    expectError(await call(oneRoute.DELETE, { method: "DELETE", token: other.token, params: p(id) }), 404);
    expect(ok(await call(oneRoute.GET, { token: admin.token, params: p(id) })).name).toBe("Private");
    expectError(await call(oneRoute.GET, { params: p(id) }), 401, "unauthorized");
    expectError(await call(listRoute.POST, { method: "POST", body: { name: "x" } }), 401);
  });

  it("enforces the state machine: only reminders and expiry change once ongoing; delete is 409 (cancel instead)", async () => {
    const { owner, request } = await draftWithSigners({ signers: [`${unique("s")}@example.test`] });
    ok(await api.activate(owner, request.id));
    const res = await call(oneRoute.PUT, { method: "PUT", token: owner.token, params: p(request.id), body: { name: "Renamed" } });
    expectError(res, 409, "signature_state");
    expect(res.body.details.status).toBe("ongoing");
    expect(ok(await call(oneRoute.PUT, { method: "PUT", token: owner.token, params: p(request.id), body: { reminder_day: 5 } })).reminder_day).toBe(5);
    expectError(await call(oneRoute.DELETE, { method: "DELETE", token: owner.token, params: p(request.id) }), 409, "signature_state");
    expectError(await api.activate(owner, request.id), 409, "signature_state");
    expectError(await api.addActor(owner, request.id, signer("late@example.test")), 409, "signature_state");
  });
});

describe("lists, received, templates, exports", () => {
  it("lists my requests in the envelope with name and status filters and paging", async () => {
    const { owner } = await pdfScene();
    const tag = unique("Batch");
    for (const n of [1, 2, 3]) ok(await api.create(owner, { name: `${tag} ${n}` }), 201);
    ok(await api.create(owner, { name: "Unrelated" }), 201);
    const all = signatureListResponse.parse(ok(await call(listRoute.GET, { token: owner.token, query: { name: tag } })));
    expect(all.nb_total_objects).toBe(3);
    expect(all.nb_objets).toBe(3);
    const page = ok(await call(listRoute.GET, { token: owner.token, query: { name: tag, nb_objects: 2, offset_start: 2 } }));
    expect(page.objects).toHaveLength(1);
    expect(ok(await call(listRoute.GET, { token: owner.token, query: { status: "ongoing" } })).nb_total_objects).toBe(0);
    expectError(await call(listRoute.GET, { token: owner.token, query: { status: "nope" } }), 400);
    expectError(await call(listRoute.GET, { token: owner.token, query: { nb_objects: -1 } }), 400);
    const other = await createTestUser();
    expect(ok(await call(listRoute.GET, { token: other.token, query: { name: tag } })).nb_total_objects).toBe(0);
    expectError(await call(listRoute.GET, {}), 401);
  });

  it("received lists requests where I am an actor, never drafts", async () => {
    const colleague = await createTestUser();
    const { owner, request, doc } = await draftWithSigners({ signers: [`${unique("x")}@example.test`] });
    const actor = ok(await api.addActor(owner, request.id, { type: "signer", id: colleague.id }), 201);
    ok(await api.addField(owner, request.id, doc.id, { type: "signature", page: 1, x: 300, y: 500, signer_id: actor.id }), 201);
    expect(ok(await call(receivedRoute.GET, { token: colleague.token })).nb_total_objects).toBe(0);
    ok(await api.activate(owner, request.id));
    const received = ok(await call(receivedRoute.GET, { token: colleague.token }));
    expect(received.objects.map((r: { id: number }) => r.id)).toEqual([request.id]);
    expect(ok(await call(receivedRoute.GET, { token: owner.token })).objects.map((r: { id: number }) => r.id)).not.toContain(request.id);
    const csv = await call(receivedExportRoute.GET, { token: colleague.token });
    expect(csv.headers.get("content-type")).toMatch(/text\/csv/);
    expect(csv.text).toContain(String(request.id));
    expectError(await call(receivedRoute.GET, {}), 401);
  });

  it("exports CSV by default and JSON on request, with columns; unknown columns are a 400", async () => {
    const { owner } = await pdfScene();
    const name = unique("=Export");
    ok(await api.create(owner, { name }), 201);
    const csv = await call(exportRoute.GET, { token: owner.token, query: { name } });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const lines = csv.text.replace(/^\uFEFF/, "").trim().split("\r\n");
    expect(lines[0]).toBe("id,name,status,mode,level,ordered,owner,user_id,creation_date,expiration_date,completed_at,deleted_at,nb_documents,nb_signers,nb_signed");
    expect(lines).toHaveLength(2);
    // A formula-looking name is neutralised for spreadsheets.
    expect(lines[1]).toContain(`'${name}`);
    const json = await call(exportRoute.GET, { token: owner.token, query: { name, format: "json", columns: "id,name,status" } });
    expect(json.headers.get("content-type")).toBe("application/json");
    expect(json.body).toEqual([{ id: expect.any(Number), name, status: "draft" }]);
    expectError(await call(exportRoute.GET, { token: owner.token, query: { columns: "id,password" } }), 400);
    expectError(await call(exportRoute.GET, { token: owner.token, query: { format: "xml" } }), 400);
    expectError(await call(exportRoute.GET, {}), 401);
  });

  it("saves a draft as a template and creates a new draft from it with the same documents, actors and fields", async () => {
    const { owner, request } = await draftWithSigners({ signers: [`${unique("t")}@example.test`] });
    ok(await call(oneRoute.PUT, { method: "PUT", token: owner.token, params: p(request.id), body: { is_template: 1 } }));
    const templates = ok(await call(templatesRoute.GET, { token: owner.token }));
    expect(templates.objects.map((t: { id: number }) => t.id)).toContain(request.id);
    expect(ok(await call(listRoute.GET, { token: owner.token })).objects.map((t: { id: number }) => t.id)).not.toContain(request.id);
    expectError(await api.activate(owner, request.id), 409, "signature_state");
    const copy = ok(await api.create(owner, { name: "From template", template_id: request.id }), 201);
    expect(copy.status).toBe("draft");
    expect(copy.documents).toHaveLength(1);
    expect(copy.actors).toHaveLength(1);
    expect(copy.documents[0].fields[0].signer_id).toBe(copy.actors[0].id);
    const other = await createTestUser();
    expectError(await api.create(other, { name: "Steal", template_id: request.id }), 404);
    expect(ok(await call(templatesRoute.GET, { token: other.token })).nb_total_objects).toBe(0);
    expectError(await call(templatesRoute.GET, {}), 401);
  });
});

describe("documents", () => {
  it("adds a PDF (pages measured), renames it, sets initials, deletes it", async () => {
    const scene = await pdfScene({ pages: 2 });
    const { id } = ok(await api.create(scene.owner, { name: "Docs" }), 201);
    const doc = ok(await api.addDocument(scene.owner, id, scene.versionId, { initials: { alignment: "right", y: 0 } }), 201);
    expect(doc).toMatchObject({ file_id: scene.versionId, name: "Contract.pdf", initial_position: "bottom-right", file_signed_id: null });
    expect(doc.pages).toHaveLength(2);
    expect(doc.pages[0]).toEqual({ width: 595.28, height: 841.89 });
    const renamed = ok(await call(documentRoute.PUT, { method: "PUT", token: scene.owner.token, params: p(id, { documentId: doc.id }), body: { name: "Lease.pdf" } }));
    expect(renamed.name).toBe("Lease.pdf");
    expectError(await call(documentRoute.PUT, { method: "PUT", token: scene.owner.token, params: p(id, { documentId: doc.id }), body: { initials: { alignment: "left", y: 3 } } }), 400);
    expect((await call(documentRoute.DELETE, { method: "DELETE", token: scene.owner.token, params: p(id, { documentId: doc.id }) })).status).toBe(204);
    expectError(await call(documentRoute.DELETE, { method: "DELETE", token: scene.owner.token, params: p(id, { documentId: doc.id }) }), 404);
  });

  it("refuses a non-PDF (415), an encrypted or damaged PDF (422 with the reason)", async () => {
    const scene = await pdfScene();
    const { id } = ok(await api.create(scene.owner, { name: "Bad docs" }), 201);
    const text = await uploadBytes(scene.owner, scene.folder.id, "notes.txt", Buffer.from("plain text"));
    expectError(await api.addDocument(scene.owner, id, text.version.id), 415, "unsupported_media_type");
    const enc = await uploadBytes(scene.owner, scene.folder.id, "locked.pdf", await encryptedPdf());
    const encrypted = await api.addDocument(scene.owner, id, enc.version.id);
    expectError(encrypted, 422, "pdf_encrypted");
    const dmg = await uploadBytes(scene.owner, scene.folder.id, "broken.pdf", await damagedPdf());
    const damaged = await api.addDocument(scene.owner, id, dmg.version.id);
    expectError(damaged, 422, "pdf_damaged");
    expect(damaged.body.error).toMatch(/damaged/);
  });

  it("needs read and download rights on the file (403), and the request's owner (404)", async () => {
    const scene = await pdfScene();
    const reader = await createTestUser();
    const shared = await createFolder(scene.owner, 0, unique("shared_"));
    const { version } = await uploadBytes(scene.owner, shared.id, "Shared.pdf", await makePdf());
    await grantRight(shared.id, reader.id, { read: true, download: false });
    const { id } = ok(await api.create(reader, { name: "Mine" }), 201);
    expectError(await api.addDocument(reader, id, version.id), 403, "forbidden");
    await grantRight(shared.id, reader.id, { read: true, download: true });
    ok(await api.addDocument(reader, id, version.id), 201);
    const stranger = await createTestUser();
    const { id: theirs } = ok(await api.create(stranger, { name: "Theirs" }), 201);
    expectError(await api.addDocument(stranger, theirs, scene.versionId), 403);
    expectError(await api.addDocument(stranger, id, version.id), 404);
    expectError(await call(documentRoute.POST, { method: "POST", params: p(id, { documentId: version.id }), body: {} }), 401);
  });
});

describe("actors and fields", () => {
  it("adds and removes actors; an internal user by id; a follower has no phone", async () => {
    const { owner, request } = await draftWithSigners({ signers: [`${unique("a")}@example.test`] });
    const colleague = await createTestUser();
    const internal = ok(await api.addActor(owner, request.id, { type: "approver", id: colleague.id }), 201);
    expect(internal).toMatchObject({ user_id: colleague.id, type: "approver", status: "initiated", position: 2, email: colleague.email.toLowerCase() });
    expectError(await api.addActor(owner, request.id, { type: "follower", infos: { email: "f@example.test", first_name: "F", last_name: "L", phone: "+33612345678" } }), 400);
    expectError(await api.addActor(owner, request.id, { type: "signer", infos: { email: "not-an-email", first_name: "F", last_name: "L" } }), 400);
    expectError(await api.addActor(owner, request.id, { type: "boss", infos: { email: "b@example.test", first_name: "F", last_name: "L" } }), 400);
    expectError(await api.addActor(owner, request.id, { type: "signer", signature_level: "qualified_electronic_signature", infos: { email: "q@example.test", first_name: "Q", last_name: "Q" } }), 422, "level_unsupported");
    const other = await createTestUser();
    expectError(await api.addActor(other, request.id, signer("x@example.test")), 404);
    expectError(await call(actorsRoute.POST, { method: "POST", params: p(request.id), body: signer("x@example.test") }), 401);
    expectError(await call(actorRoute.DELETE, { method: "DELETE", token: other.token, params: p(request.id, { actorId: internal.id }) }), 404);
    expect((await call(actorRoute.DELETE, { method: "DELETE", token: owner.token, params: p(request.id, { actorId: internal.id }) })).status).toBe(204);
    expectError(await call(actorRoute.DELETE, { method: "DELETE", token: owner.token, params: p(request.id, { actorId: internal.id }) }), 404);
  });

  it("places fields on the page for signers only; outside the page or for a follower is a 400", async () => {
    const { owner, request, doc, actors } = await draftWithSigners({ signers: [`${unique("f")}@example.test`], extra: [{ type: "follower", infos: { email: "fw@example.test", first_name: "F", last_name: "W" } }] });
    const follower = actors[1];
    const text = ok(await api.addField(owner, request.id, doc.id, { type: "text", page: 1, x: 10, y: 10, signer_id: actors[0].id, max_length: 20, question: "City" }), 201);
    expect(text).toMatchObject({ type: "text", width: 150, height: 20, max_length: 20, question: "City" });
    expectError(await api.addField(owner, request.id, doc.id, { type: "signature", page: 2, x: 10, y: 10, signer_id: actors[0].id }), 400);
    const outside = await api.addField(owner, request.id, doc.id, { type: "signature", page: 1, x: 500, y: 10, signer_id: actors[0].id });
    expectError(outside, 400);
    expect(outside.body.error).toMatch(/outside page 1/);
    expectError(await api.addField(owner, request.id, doc.id, { type: "signature", page: 1, x: 10, y: 10, signer_id: follower.id }), 400);
    expectError(await api.addField(owner, request.id, doc.id, { type: "signature", page: 1, x: 10, y: 10, signer_id: 99999999 }), 400);
    const moved = ok(await call(fieldRoute.PUT, { method: "PUT", token: owner.token, params: p(request.id, { documentId: doc.id, fieldId: text.id }), body: { x: 100, y: 700 } }));
    expect(moved).toMatchObject({ x: 100, y: 700 });
    expectError(await call(fieldRoute.PUT, { method: "PUT", token: owner.token, params: p(request.id, { documentId: doc.id, fieldId: text.id }), body: { y: 830 } }), 400);
    const other = await createTestUser();
    expectError(await call(fieldRoute.PUT, { method: "PUT", token: other.token, params: p(request.id, { documentId: doc.id, fieldId: text.id }), body: { x: 1 } }), 404);
    expectError(await call(fieldsRoute.POST, { method: "POST", params: p(request.id, { documentId: doc.id }), body: {} }), 401);
    expect((await call(fieldRoute.DELETE, { method: "DELETE", token: owner.token, params: p(request.id, { documentId: doc.id, fieldId: text.id }) })).status).toBe(204);
    expectError(await call(fieldRoute.DELETE, { method: "DELETE", token: owner.token, params: p(request.id, { documentId: doc.id, fieldId: text.id }) }), 404);
  });
});

describe("activation", () => {
  it("needs a document, a signer, and a signature field for each signer (409 with the reason)", async () => {
    const scene = await pdfScene();
    const { id } = ok(await api.create(scene.owner, { name: "Empty" }), 201);
    let res = await api.activate(scene.owner, id);
    expectError(res, 409, "signature_state");
    expect(res.body.details.reason).toMatch(/no document/);
    const doc = ok(await api.addDocument(scene.owner, id, scene.versionId), 201);
    res = await api.activate(scene.owner, id);
    expect(res.body.details.reason).toMatch(/no signer/);
    const a = ok(await api.addActor(scene.owner, id, signer(`${unique("n")}@example.test`)), 201);
    res = await api.activate(scene.owner, id);
    expectError(res, 409);
    expect(res.body.details.actors).toEqual([a.id]);
    ok(await api.addField(scene.owner, id, doc.id, { type: "signature", page: 1, x: 10, y: 10, signer_id: a.id }), 201);
    const other = await createTestUser();
    expectError(await api.activate(other, id), 404);
    expectError(await call(activateRoute.POST, { method: "POST", params: p(id) }), 401);
    const active = ok(await api.activate(scene.owner, id));
    expect(active.status).toBe("ongoing");
    expect(active.activities.map((x: { action: string }) => x.action)).toEqual(["signature_request.invitationCreated", "signature_request.invitationSent"]);
  });
});

describe("reminders, cancel, results, activities", () => {
  it("reminds one or all awaited actors (409 when not awaited), and the job reminds every reminder_day days", async () => {
    const emails = [`${unique("r1")}@example.test`, `${unique("r2")}@example.test`];
    const { owner, request, actors } = await draftWithSigners({ signers: emails, ordered: 1, body: { reminder_day: 1 } });
    expectError(await call(remindAllRoute.POST, { method: "POST", token: owner.token, params: p(request.id) }), 409, "signature_state");
    ok(await api.activate(owner, request.id));
    const all = ok(await call(remindAllRoute.POST, { method: "POST", token: owner.token, params: p(request.id) }));
    expect(all.reminded).toEqual([actors[0].id]);
    expect((await mailTo(emails[0]))?.subject).toMatch(/^Reminder/);
    expectError(await call(remindOneRoute.POST, { method: "POST", token: owner.token, params: p(request.id, { actorId: actors[1].id }) }), 409, "signature_state");
    ok(await call(remindOneRoute.POST, { method: "POST", token: owner.token, params: p(request.id, { actorId: actors[0].id }) }));
    const other = await createTestUser();
    expectError(await call(remindAllRoute.POST, { method: "POST", token: other.token, params: p(request.id) }), 404);
    expectError(await call(remindOneRoute.POST, { method: "POST", params: p(request.id, { actorId: actors[0].id }) }), 401);

    const db = await getDb();
    await db.update(signatureActors).set({ lastRemindedAt: new Date(Date.now() - 2 * 86_400_000) }).where(eq(signatureActors.id, actors[0].id));
    expect(await sendDueReminders(db)).toContain(actors[0].id);
    expect(await sendDueReminders(db)).not.toContain(actors[0].id);
    const [row] = await db.select().from(signatureActors).where(eq(signatureActors.id, actors[0].id));
    expect(row.remindersSent).toBe(3);
    const activities = ok(await call(activitiesRoute.GET, { token: owner.token, params: p(request.id) }));
    expect(activities.objects.filter((a: { action: string }) => a.action === "signer.reminded")).toHaveLength(3);
  });

  it("reminder_settings caps the automatic reminders at max_occurences", async () => {
    const email = `${unique("cap")}@example.test`;
    const { owner, request, actors } = await draftWithSigners({ signers: [email], body: {} });
    ok(await call(oneRoute.PUT, { method: "PUT", token: owner.token, params: p(request.id), body: { data: { reminder_settings: { interval_in_days: 1, max_occurences: 1 } } } }));
    ok(await api.activate(owner, request.id));
    const db = await getDb();
    await db.update(signatureActors).set({ notifiedAt: new Date(Date.now() - 3 * 86_400_000) }).where(eq(signatureActors.id, actors[0].id));
    expect(await sendDueReminders(db)).toContain(actors[0].id);
    await db.update(signatureActors).set({ lastRemindedAt: new Date(Date.now() - 3 * 86_400_000) }).where(eq(signatureActors.id, actors[0].id));
    expect(await sendDueReminders(db)).not.toContain(actors[0].id);
  });

  it("signed is 409 until done; audit is a PDF in any status; activities export as CSV and JSON; strangers get 404", async () => {
    const { owner, request } = await draftWithSigners({ signers: [`${unique("res")}@example.test`] });
    expectError(await call(signedRoute.GET, { token: owner.token, params: p(request.id) }), 409, "signature_state");
    const audit = await call(auditRoute.GET, { token: owner.token, params: p(request.id) });
    expect(audit.status).toBe(200);
    expect(audit.headers.get("content-type")).toBe("application/pdf");
    expect(audit.text.startsWith("%PDF-")).toBe(true);
    ok(await api.activate(owner, request.id));
    const csv = await call(activitiesExportRoute.GET, { token: owner.token, params: p(request.id) });
    expect(csv.text.replace(/^\uFEFF/, "").split("\r\n")[0]).toBe("id,date,action,from,to,actor_email,actor_name,ip,user_agent,signature_id");
    expect(csv.text).toContain("signature_request.invitationSent");
    const json = await call(activitiesExportRoute.GET, { token: owner.token, params: p(request.id), query: { format: "json", columns: "action,to" } });
    expect(json.body.map((r: { action: string }) => r.action)).toEqual(["signature_request.invitationCreated", "signature_request.invitationSent"]);
    const other = await createTestUser();
    for (const handler of [signedRoute.GET, auditRoute.GET, activitiesRoute.GET, activitiesExportRoute.GET]) {
      expectError(await call(handler, { token: other.token, params: p(request.id) }), 404);
      expectError(await call(handler, { params: p(request.id) }), 401);
    }
    expectError(await call(cancelRoute.POST, { method: "POST", token: other.token, params: p(request.id) }), 404);
    expectError(await call(cancelRoute.POST, { method: "POST", params: p(request.id) }), 401);
    const db = await getDb();
    const [row] = await db.select().from(signatureRequests).where(eq(signatureRequests.id, request.id));
    expect(row.status).toBe("ongoing");
  });
});

describe("every route needs a token", () => {
  it("answers 401 without one, on every method of every signature route", async () => {
    const params = p(1, { actorId: 1, documentId: 1, fieldId: 1 });
    const routes = [listRoute, receivedRoute, templatesRoute, exportRoute, receivedExportRoute, oneRoute, actorsRoute, actorRoute, remindAllRoute, remindOneRoute, activateRoute, cancelRoute, documentRoute, fieldsRoute, fieldRoute, signedRoute, auditRoute, activitiesRoute, activitiesExportRoute];
    let checked = 0;
    for (const mod of routes) {
      for (const method of ["GET", "POST", "PUT", "DELETE"] as const) {
        const res = await call(mod[method as keyof typeof mod] as never, { method, params, body: method === "GET" || method === "DELETE" ? undefined : {} });
        if (res.status === 405) continue;
        expectError(res, 401, "unauthorized");
        checked++;
      }
    }
    expect(checked).toBe(25);
  });
});

