import "server-only";
import { Readable } from "node:stream";
import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import type { Db, DbOrTx } from "@/db";
import { folders, signatureActors, signatureDocuments, signatureFields, signatureRequests, type SignatureActorRow, type SignatureDocumentRow, type SignatureFieldRow, type SignatureRequestRow, type User } from "@/db/schema";
import { getBlobStore } from "@/lib/server/blobs/stores";
import type { StoredBlob } from "@/lib/storage/blob-store";
import { getPlatformConfig } from "../config/platform-config";
import type { AuthedCtx } from "../context";
import { commitUpload } from "../files/commit-upload";
import { resolveFolderRights } from "../rights/resolve-rights";
import { readBlobUpTo } from "./add-signature-document";
import { auditTrailName, sealedAuditTrail, sha256, trailLocale, type Completion } from "./audit-trail";
import { initiatorOf, lockRequest } from "./notify-actors";
import { pngOfDataUrl } from "./drawn-signature";
import { signedCaption } from "./field-values";
import { recordActivity } from "./record-activity";
import { MAX_SIGNABLE_PDF_BYTES } from "./seal/inspect-pdf";
import { stampAndSealPdf } from "./seal/seal-pdf";
import type { AuditLocale } from "./seal/audit-trail-labels";
import type { Stamp } from "./seal/stamp-fields";
import { settleParent } from "./settle-parent";
import { mailTranslator } from "../mail/render-mail";
import { actorName, actorRecipient, jobBaseUrl, queueSignatureMail } from "./signature-mails";
import { copyUrl, makeToken, newNonce } from "./signing-token";

/**
 * Every filled field of a document as the seal's stamps: drawn or typed signatures and initials
 * (with their caption: the signer's name and date), checkboxes, and the others' text as stored.
 */
export function stampsOf(fields: SignatureFieldRow[], actors: Map<number, SignatureActorRow>): Stamp[] {
  const stamps: Stamp[] = [];
  for (const f of fields) {
    if (f.value === null) continue;
    const box = { page: f.page, x: f.x, y: f.y, width: f.width, height: f.height };
    const actor = actors.get(f.actorId);
    const caption = actor ? signedCaption(actorName(actor), actor.doneAt ?? new Date(), actor.locale) : undefined;
    if (f.type === "signature") {
      if (actor?.signatureKind === "drawn" && actor.signatureImage) {
        stamps.push({ ...box, kind: "image", png: pngOfDataUrl(actor.signatureImage), caption });
      } else if (actor?.signatureText) {
        stamps.push({ ...box, kind: "text", text: actor.signatureText, font: "script", caption });
      }
    } else if (f.type === "initials") {
      stamps.push({ ...box, kind: "text", text: f.value, font: "script", caption });
    } else if (f.type === "checkbox") {
      stamps.push({ ...box, kind: "checkbox", checked: f.value === "true" });
    } else if (f.value) {
      stamps.push({ ...box, kind: "text", text: f.value, size: f.fontSize });
    }
  }
  return stamps;
}

type Prepared = { doc: SignatureDocumentRow; blob: StoredBlob; before: string; after: string };
/** The sealed audit trail as it reads once done, in each language the actors read. */
type Trails = Map<AuditLocale, StoredBlob>;

/** `Contract.pdf` → `Contract (signed).pdf` (commitUpload numbers it on a clash). */
export const signedName = (name: string) => `${name.replace(/\.pdf$/i, "")} (signed).pdf`;

/** Where the signed file goes: beside the original, or the initiator's private space when they may no longer write there. */
async function destinationOf(db: DbOrTx, initiator: User, folderId: number): Promise<number> {
  const [folder] = await db.select({ id: folders.id }).from(folders).where(and(eq(folders.id, folderId), isNull(folders.deletedAt))).limit(1);
  if (folder && (await resolveFolderRights(db, initiator, folder.id)).write) return folder.id;
  return initiator.privateRootId ?? folderId;
}

/**
 * Job `signatures.complete` (api.md, "completion"): each document's original is stamped with
 * every field, sealed once, and stored as a new file beside the original through the upload
 * commit (quota, events, audit), owned by the initiator; in the same transaction the request
 * becomes `done`, so nothing half-signed is ever visible. Idempotent: a request no longer
 * ongoing is left alone. A failure leaves it ongoing and the job system retries.
 */
export async function completeSignatureRequest(db: Db, signatureId: number): Promise<"done" | "skipped"> {
  const [request] = await db.select().from(signatureRequests).where(eq(signatureRequests.id, signatureId));
  if (!request || request.status !== "ongoing") return "skipped";
  const actors = await db.select().from(signatureActors).where(eq(signatureActors.signatureId, request.id)).orderBy(asc(signatureActors.position));
  if (!actors.filter((a) => a.type === "signer" || a.type === "approver").every((a) => a.status === "done")) return "skipped";
  const docs = await db.select().from(signatureDocuments).where(eq(signatureDocuments.signatureId, request.id)).orderBy(asc(signatureDocuments.position), asc(signatureDocuments.id));
  const fields = docs.length ? await db.select().from(signatureFields).where(inArray(signatureFields.documentId, docs.map((d) => d.id))) : [];
  const byId = new Map(actors.map((a) => [a.id, a]));
  const { platform_name } = await getPlatformConfig(db);
  const signers = actors.filter((a) => a.type === "signer").map(actorName).join(", ");

  // The heavy work (stamp and seal, in a worker; store) happens before the transaction; the blobs
  // are only referenced once it commits, and the blob collector takes those of a failed attempt.
  const prepared: Prepared[] = [];
  const trails: Trails = new Map();
  const store = getBlobStore();
  try {
    for (const doc of docs) {
      const original = await readBlobUpTo(doc.blobId, MAX_SIGNABLE_PDF_BYTES);
      const stamps = stampsOf(fields.filter((f) => f.documentId === doc.id), byId);
      const sealed = await stampAndSealPdf(db, original, stamps, { reason: `Signed by ${signers}`.slice(0, 500), name: platform_name, location: platform_name });
      const blob = await store.put(Readable.from([Buffer.from(sealed)]));
      prepared.push({ doc, blob, before: sha256(original), after: sha256(sealed) });
    }
    const completion: Completion = { documents: prepared.map((p) => ({ name: p.doc.name, sha256_before: p.before, sha256_after: p.after })), completedAt: new Date() };
    for (const locale of new Set(actors.map((a) => trailLocale(a.locale)))) {
      trails.set(locale, await store.put(Readable.from([Buffer.from(await sealedAuditTrail(db, request, locale, completion))])));
    }
    return await db.transaction(async (tx) => {
      const locked = await lockRequest(tx, request.id);
      if (!locked || locked.status !== "ongoing") throw new Skip();
      const initiator = await initiatorOf(tx, locked);
      const ctx: AuthedCtx = { db: tx, actor: { user: initiator, realUser: initiator, sessionId: null }, request: { ip: "127.0.0.1", userAgent: "coffre signatures.complete" } };
      for (const p of prepared) {
        const folderId = await destinationOf(tx, initiator, p.doc.folderId);
        const { version } = await commitUpload(ctx, { folderId, name: signedName(p.doc.name), blob: p.blob, neverOverwrite: true });
        await tx.update(signatureDocuments).set({ fileSignedId: version.id, sha256Before: p.before, sha256After: p.after }).where(eq(signatureDocuments.id, p.doc.id));
      }
      const now = completion.completedAt;
      await tx.update(signatureRequests).set({ status: "done", completedAt: now, updatedAt: now }).where(eq(signatureRequests.id, locked.id));
      await recordActivity(tx, { signatureId: locked.id, action: "signature_request.done", date: now, details: { documents: completion.documents } });
      await mailResults(tx, locked, initiator, actors, prepared, trails);
      await settleParent(tx, locked);
      return "done" as const;
    });
  } catch (error) {
    await Promise.all([...prepared.map((p) => p.blob), ...trails.values()].map((blob) => store.delete(blob.id).catch(() => {})));
    if (error instanceof Skip) return "skipped";
    throw error;
  }
}

class Skip extends Error {}

/** The largest sum of attachments a mail carries (MAIL_ATTACHMENT_MAX_BYTES, default 10 MiB); beyond it, a link only. */
export function mailAttachmentLimit(): number {
  const n = Number(process.env.MAIL_ATTACHMENT_MAX_BYTES);
  return Number.isSafeInteger(n) && n >= 0 ? n : 10 * 1024 * 1024;
}

/**
 * The initiator gets the request's page. Every other actor (signers, approvers, followers) gets
 * their copy: the signed PDFs and the sealed audit trail (in their language) attached while they
 * fit the mail size limit, and always a personal link to the signed documents and the audit trail.
 */
async function mailResults(tx: DbOrTx, request: SignatureRequestRow, initiator: User, actors: SignatureActorRow[], prepared: Prepared[], trails: Trails) {
  const base = jobBaseUrl();
  if (initiator.email) {
    await queueSignatureMail(tx, "done", { email: initiator.email, language: initiator.language, name: initiator.firstname }, request, { link: `${base}/signatures/${request.id}` });
  }
  const pdf = (filename: string, blob: StoredBlob) => ({ attachment: { filename, blob_id: blob.id, content_type: "application/pdf" }, size: blob.size });
  const signed = prepared.map((p) => pdf(signedName(p.doc.name), p.blob));
  for (const actor of actors) {
    const files = [...signed, pdf(auditTrailName(request), trails.get(trailLocale(actor.locale))!)];
    const fits = files.reduce((sum, f) => sum + f.size, 0) <= mailAttachmentLimit();
    const attachments = fits ? files.map((f) => f.attachment) : [];
    let nonce = actor.tokenNonce;
    if (!nonce) {
      nonce = newNonce();
      await tx.update(signatureActors).set({ tokenNonce: nonce }).where(eq(signatureActors.id, actor.id));
    }
    const copy = mailTranslator(actor.locale)(fits ? "mail.signature.attached" : "mail.signature.tooLarge");
    await queueSignatureMail(tx, "copy", actorRecipient(actor), request, { copy, link: copyUrl(base, await makeToken(actor.id, nonce, "copy")) }, { sensitive: true, attachments });
  }
}

export async function completeSignatureJob(db: Db, payload: Record<string, unknown>): Promise<void> {
  const id = Number(payload.signatureId);
  if (Number.isSafeInteger(id) && id > 0) await completeSignatureRequest(db, id);
}
