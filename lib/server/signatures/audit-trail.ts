import "server-only";
import { createHash } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { signatureActivities, signatureActors, signatureDocuments, type SignatureRequestRow } from "@/db/schema";
import { displayName } from "../audit/write-log";
import { getPlatformConfig } from "../config/platform-config";
import type { AuthedCtx } from "../context";
import { attachmentDisposition } from "../downloads/content-disposition";
import { MAX_SIGNABLE_PDF_BYTES } from "./seal/inspect-pdf";
import type { AuditTrailInput } from "./seal/audit-trail-pdf";
import type { AuditLocale } from "./seal/audit-trail-labels";
import { renderSealedAuditTrail } from "./seal/seal-pdf";
import { readBlobUpTo } from "./add-signature-document";
import { initiatorOf } from "./notify-actors";
import { getReadableSignatureOrThrow } from "./signature-access";
import { actorName } from "./signature-mails";

export const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** The languages the trail is drawn in: French for French speakers, English for everyone else. */
export const trailLocale = (language: string | null | undefined): AuditLocale => (language === "fr" ? "fr" : "en");

/** `Contract` → `Contract (audit trail).pdf`, as downloaded and as attached to the completion mails. */
export const auditTrailName = (request: Pick<SignatureRequestRow, "name">) => `${request.name.replace(/[/\\]/g, "_")} (audit trail).pdf`;

/** What completing a request adds to its trail, before the completing transaction commits. */
export type Completion = { documents: { name: string; sha256_before: string; sha256_after: string }[]; completedAt: Date };

/**
 * What the audit trail of a request shows, from its activities: every activity with date,
 * address and user agent, each document's SHA-256 before (the original) and after (the signed
 * file, once done). With `completion`, the trail as it reads once the request is done, for the
 * copy the completion mails carry.
 */
export async function auditTrailInput(db: DbOrTx, request: SignatureRequestRow, locale: AuditLocale, completion?: Completion): Promise<AuditTrailInput> {
  const [docs, actors, activities, initiator] = await Promise.all([
    db.select().from(signatureDocuments).where(eq(signatureDocuments.signatureId, request.id)).orderBy(asc(signatureDocuments.position), asc(signatureDocuments.id)),
    db.select().from(signatureActors).where(eq(signatureActors.signatureId, request.id)).orderBy(asc(signatureActors.position)),
    db.select().from(signatureActivities).where(eq(signatureActivities.signatureId, request.id)).orderBy(asc(signatureActivities.id)),
    initiatorOf(db, request),
  ]);
  const byId = new Map(actors.map((a) => [a.id, a]));
  const documents = [];
  if (completion) documents.push(...completion.documents);
  else for (const d of docs) documents.push({ name: d.name, sha256_before: d.sha256Before ?? sha256(await readBlobUpTo(d.blobId, MAX_SIGNABLE_PDF_BYTES)), sha256_after: d.sha256After });
  const initiatorName = initiator ? displayName(initiator) : "";
  const trail = activities.map((x) => {
    const who = x.fromActorId !== null ? byId.get(x.fromActorId) : x.toActorId !== null ? byId.get(x.toActorId) : undefined;
    return { date: x.date, action: x.action, actor: who ? `${actorName(who)} <${who.email}>` : x.userId === request.userId ? initiatorName : null, address: x.ip, user_agent: x.userAgent };
  });
  if (completion) trail.push({ date: completion.completedAt, action: "signature_request.done", actor: null, address: null, user_agent: null });
  return {
    request: {
      id: request.id,
      name: request.name,
      status: completion ? "done" : request.status,
      initiator: { name: initiatorName, email: initiator?.email ?? "" },
      created_at: request.createdAt,
      completed_at: completion?.completedAt ?? request.completedAt,
    },
    documents,
    actors: actors.map((a) => ({ type: a.type, name: actorName(a), email: a.email, status: a.status, signed_at: a.doneAt })),
    activities: trail,
    locale,
  };
}

/** The trail drawn and sealed in a seal worker: a long trail is pages of text to lay out. */
export async function sealedAuditTrail(db: DbOrTx, request: SignatureRequestRow, locale: AuditLocale, completion?: Completion): Promise<Uint8Array> {
  const { platform_name } = await getPlatformConfig(db);
  const input = await auditTrailInput(db, request, locale, completion);
  return renderSealedAuditTrail(db, input, { reason: `Audit trail of signature request #${request.id}`, name: platform_name });
}

/** GET /signatures/(id)/audit (api.md): the audit trail as a sealed PDF, built on demand, in any status. */
export async function auditTrail(ctx: AuthedCtx, signatureId: number): Promise<Response> {
  const { request } = await getReadableSignatureOrThrow(ctx.db, ctx.actor.user, signatureId);
  const sealed = await sealedAuditTrail(ctx.db, request, trailLocale(ctx.actor.user.language));
  return new Response(Buffer.from(sealed), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": attachmentDisposition(auditTrailName(request)),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
