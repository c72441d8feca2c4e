import "server-only";
import { asc, eq } from "drizzle-orm";
import { signatureActivities, signatureActors, signatureDocuments } from "@/db/schema";
import { displayName } from "../audit/write-log";
import { getPlatformConfig } from "../config/platform-config";
import type { AuthedCtx } from "../context";
import { attachmentDisposition } from "../downloads/content-disposition";
import { MAX_SIGNABLE_PDF_BYTES } from "./seal/inspect-pdf";
import { renderSealedAuditTrail } from "./seal/seal-pdf";
import { readBlobUpTo } from "./add-signature-document";
import { sha256 } from "./complete-signature-request";
import { initiatorOf } from "./notify-actors";
import { getReadableSignatureOrThrow } from "./signature-access";
import { actorName } from "./signature-mails";

/**
 * GET /signatures/(id)/audit (api.md): the audit trail as a sealed PDF, built on demand from the
 * activities, in any status: every activity with date, address and user agent, each document's
 * SHA-256 before (the original) and after (the signed file, once done).
 */
export async function auditTrail(ctx: AuthedCtx, signatureId: number): Promise<Response> {
  const { request } = await getReadableSignatureOrThrow(ctx.db, ctx.actor.user, signatureId);
  const [docs, actors, activities, initiator] = await Promise.all([
    ctx.db.select().from(signatureDocuments).where(eq(signatureDocuments.signatureId, request.id)).orderBy(asc(signatureDocuments.position), asc(signatureDocuments.id)),
    ctx.db.select().from(signatureActors).where(eq(signatureActors.signatureId, request.id)).orderBy(asc(signatureActors.position)),
    ctx.db.select().from(signatureActivities).where(eq(signatureActivities.signatureId, request.id)).orderBy(asc(signatureActivities.id)),
    initiatorOf(ctx.db, request),
  ]);
  const byId = new Map(actors.map((a) => [a.id, a]));
  const documents = [];
  for (const d of docs) documents.push({ name: d.name, sha256_before: d.sha256Before ?? sha256(await readBlobUpTo(d.blobId, MAX_SIGNABLE_PDF_BYTES)), sha256_after: d.sha256After });
  const initiatorName = initiator ? displayName(initiator) : "";
  const { platform_name } = await getPlatformConfig(ctx.db);
  const input = {
    request: { id: request.id, name: request.name, status: request.status, initiator: { name: initiatorName, email: initiator?.email ?? "" }, created_at: request.createdAt, completed_at: request.completedAt },
    documents,
    actors: actors.map((a) => ({ type: a.type, name: actorName(a), email: a.email, status: a.status, signed_at: a.doneAt })),
    activities: activities.map((x) => {
      const who = x.fromActorId !== null ? byId.get(x.fromActorId) : x.toActorId !== null ? byId.get(x.toActorId) : undefined;
      return { date: x.date, action: x.action, actor: who ? `${actorName(who)} <${who.email}>` : x.userId === request.userId ? initiatorName : null, address: x.ip, user_agent: x.userAgent };
    }),
    locale: ctx.actor.user.language === "fr" ? ("fr" as const) : ("en" as const),
  };
  // Drawn and sealed in a seal worker: a long trail is pages of text to lay out.
  const sealed = await renderSealedAuditTrail(ctx.db, input, { reason: `Audit trail of signature request #${request.id}`, name: platform_name });
  return new Response(Buffer.from(sealed), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": attachmentDisposition(`${request.name.replace(/[/\\]/g, "_")} (audit trail).pdf`),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
