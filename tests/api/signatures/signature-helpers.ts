import { and, desc, eq, like } from "drizzle-orm";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { expect } from "vitest";
import * as actorsRoute from "@/app/api/signatures/[signatureId]/actors/route";
import * as activateRoute from "@/app/api/signatures/[signatureId]/activate/route";
import * as documentRoute from "@/app/api/signatures/[signatureId]/documents/[documentId]/route";
import * as fieldsRoute from "@/app/api/signatures/[signatureId]/documents/[documentId]/fields/route";
import * as listRoute from "@/app/api/signatures/route";
import * as signRoute from "@/app/api/sign/[token]/route";
import { getDb } from "@/db";
import { emails, signatureRequests, users } from "@/db/schema";
import type { TestUser } from "../../helpers/factories";
import { createTestUser, unique } from "../../helpers/factories";
import { createFolder } from "../../helpers/files";
import { call, type CallResult } from "../../helpers/http";
import { runJobsUntil } from "../../helpers/jobs";
import { uploadBytes } from "../../helpers/upload-factories";

/** A plain PDF of `pages` A4 pages drawn with pdf-lib (no binary fixture in the repository). */
export async function makePdf(pages = 1): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= pages; n++) doc.addPage([595.28, 841.89]).drawText(`Contract page ${n}`, { x: 50, y: 780, size: 18, font });
  return doc.save();
}

/** A tiny but real PNG (1×1, red): what a drawn signature sends, as a data URL. */
export const PNG_DATA_URL =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

/** An owner with a real mail address, a folder and an uploaded PDF (a version id to add). */
export async function pdfScene(options: { pages?: number; name?: string } = {}) {
  const owner = await createTestUser();
  const db = await getDb();
  const email = `${unique("initiator")}@example.test`;
  await db.update(users).set({ email }).where(eq(users.id, owner.id));
  const folder = await createFolder(owner, owner.privateRootId!, unique("contracts_"));
  const pdf = await makePdf(options.pages ?? 1);
  const { version, file } = await uploadBytes(owner, folder.id, options.name ?? "Contract.pdf", pdf);
  return { owner: { ...owner, email } as TestUser, folder, pdf, versionId: version.id, fileId: file.id };
}

export const api = {
  create: (user: TestUser, body: Record<string, unknown>) => call(listRoute.POST, { method: "POST", token: user.token, body }),
  addDocument: (user: TestUser, signatureId: number, fileId: number, body: Record<string, unknown> = {}) =>
    call(documentRoute.POST, { method: "POST", token: user.token, params: { signatureId: String(signatureId), documentId: String(fileId) }, body }),
  addActor: (user: TestUser, signatureId: number, body: Record<string, unknown>) => call(actorsRoute.POST, { method: "POST", token: user.token, params: { signatureId: String(signatureId) }, body }),
  addField: (user: TestUser, signatureId: number, documentId: number, body: Record<string, unknown>) =>
    call(fieldsRoute.POST, { method: "POST", token: user.token, params: { signatureId: String(signatureId), documentId: String(documentId) }, body }),
  activate: (user: TestUser, signatureId: number) => call(activateRoute.POST, { method: "POST", token: user.token, params: { signatureId: String(signatureId) } }),
};

export function ok(res: CallResult, status = 200) {
  expect(res.status, res.text).toBe(status);
  return res.body;
}

export const signer = (email: string, first = "Ada", last = "Signer", extra: Record<string, unknown> = {}) => ({ type: "signer", infos: { email, first_name: first, last_name: last, ...extra } });

/**
 * A draft with the scene's PDF, the given signers (each with a signature field on page 1) and
 * any extra actors. Returns ids to go on with.
 */
export async function draftWithSigners(options: { signers: string[]; mode?: string; ordered?: 0 | 1; level?: string; extra?: Record<string, unknown>[]; body?: Record<string, unknown>; phones?: (string | undefined)[] }) {
  const scene = await pdfScene();
  const request = ok(await api.create(scene.owner, { name: unique("Lease "), mode: options.mode, ordered: options.ordered, level: options.level, ...options.body }), 201);
  const doc = ok(await api.addDocument(scene.owner, request.id, scene.versionId), 201);
  const actors: { id: number; email: string }[] = [];
  for (const [i, email] of options.signers.entries()) {
    const phone = options.phones?.[i];
    const actor = ok(await api.addActor(scene.owner, request.id, signer(email, `Signer${i + 1}`, "Test", phone ? { phone } : {})), 201);
    ok(await api.addField(scene.owner, request.id, doc.id, { type: "signature", page: 1, x: 50 + i * 10, y: 100 + i * 80, signer_id: actor.id }), 201);
    actors.push(actor);
  }
  for (const extra of options.extra ?? []) actors.push(ok(await api.addActor(scene.owner, request.id, extra), 201));
  return { ...scene, request, doc, actors };
}

/** Runs the completion job until the request is done; its row. */
export async function waitDone(signatureId: number) {
  const db = await getDb();
  return runJobsUntil(["signatures.complete"], async () => {
    const [row] = await db.select().from(signatureRequests).where(eq(signatureRequests.id, signatureId));
    return row.status === "done" ? row : undefined;
  }, 60_000);
}

/** The newest mail to `to` in the outbox, and the signing token its link carries. */
export async function mailTo(to: string, subjectLike = "%"): Promise<{ subject: string; text: string; token: string | null } | undefined> {
  const db = await getDb();
  const [mail] = await db.select().from(emails).where(and(eq(emails.to, to), like(emails.object, subjectLike))).orderBy(desc(emails.id)).limit(1);
  if (!mail) return undefined;
  const token = /\/sign\/([0-9]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)/.exec(mail.content)?.[1] ?? null;
  return { subject: mail.object, text: mail.content, token };
}

export async function tokenFromMail(to: string): Promise<string> {
  const mail = await mailTo(to);
  expect(mail?.token, `no signing link mailed to ${to}`).toBeTruthy();
  return mail!.token!;
}

export const publicRead = (token: string, headers: Record<string, string> = {}) => call(signRoute.GET, { params: { token }, headers: { "x-forwarded-for": "203.0.113.9", "user-agent": "Mozilla/5.0 SignerTest", ...headers } });
export const publicSign = (token: string, body: Record<string, unknown>) =>
  call(signRoute.POST, { method: "POST", params: { token }, body, headers: { "x-forwarded-for": "203.0.113.9", "user-agent": "Mozilla/5.0 SignerTest" } });

/** Signs every field of this actor: a drawn signature, checkboxes checked, texts filled. */
export async function signAll(token: string, extra: Record<string, unknown> = {}) {
  const view = ok(await publicRead(token));
  const fields = view.documents.flatMap((d: { fields: { id: number; type: string }[] }) => d.fields).filter((f: { type: string }) => f.type !== "signature");
  return publicSign(token, { fields: fields.map((f: { id: number; type: string }) => ({ id: f.id, value: f.type === "checkbox" ? true : "Paris" })), signature: { type: "drawn", image: PNG_DATA_URL }, ...extra });
}
