import "server-only";
import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import { signatureActors, signatureDocuments, signatureFields, users } from "@/db/schema";
import type { PublicSigningResponse, SignatureLevel, SignatureStatus, ActorStatus, ActorType } from "@/lib/contracts/signatures";
import { displayName } from "../audit/write-log";
import type { Ctx } from "../context";
import { iso } from "../present/envelope";
import { presentField } from "./present-signatures";
import { recordActivity } from "./record-activity";
import { needsCode, openSignerOrThrow } from "./signer-access";

/** `+33 6 12 34 56 78` → `•••• 78`: enough for the signer to recognise their phone, not to learn it. */
export const maskPhone = (phone: string) => `•••• ${phone.replace(/\D/g, "").slice(-2)}`;
export const maskEmail = (email: string) => email.replace(/^(.)[^@]*(@.*)$/, "$1•••$2");

/**
 * GET /sign/(token) (api.md): the request as this actor sees it, with only their own fields.
 * The first opening marks the actor `opened` and records `signer.link_opened` with the address
 * and user agent, once.
 */
export async function readSigning(ctx: Ctx, token: string): Promise<PublicSigningResponse> {
  const { request, actor } = await openSignerOrThrow(ctx.db, token);
  if (actor.status === "notified") {
    // Only the first of concurrent openings moves the status and writes the activity.
    const moved = await ctx.db
      .update(signatureActors)
      .set({ status: "opened", openedAt: new Date() })
      .where(and(eq(signatureActors.id, actor.id), eq(signatureActors.status, "notified"), isNull(signatureActors.openedAt)))
      .returning({ id: signatureActors.id });
    if (moved.length) {
      await recordActivity(ctx.db, { signatureId: request.id, action: "signer.link_opened", from: actor.id, to: actor.id, userId: actor.userId, request: ctx.request });
      actor.status = "opened";
    }
  }
  const docs = await ctx.db.select().from(signatureDocuments).where(eq(signatureDocuments.signatureId, request.id)).orderBy(asc(signatureDocuments.position), asc(signatureDocuments.id));
  const fields = docs.length
    ? await ctx.db.select().from(signatureFields).where(and(eq(signatureFields.actorId, actor.id), inArray(signatureFields.documentId, docs.map((d) => d.id)))).orderBy(asc(signatureFields.id))
    : [];
  const [owner] = await ctx.db.select().from(users).where(eq(users.id, request.userId));
  const code = needsCode(request, actor);
  return {
    signature: { id: request.id, name: request.name, status: request.status as SignatureStatus, expiration_date: iso(request.expirationDate), level: request.level as SignatureLevel, owner: owner ? displayName(owner) : "" },
    actor: {
      id: actor.id,
      type: actor.type as ActorType,
      status: actor.status as ActorStatus,
      first_name: actor.firstName,
      last_name: actor.lastName,
      email: actor.email,
      code_required: code,
      code_channel: code ? (actor.phone ? "sms" : "email") : null,
      code_destination: code ? (actor.phone ? maskPhone(actor.phone) : maskEmail(actor.email)) : null,
    },
    documents: docs.map((d) => ({ id: d.id, name: d.name, pages: d.pages, fields: fields.filter((f) => f.documentId === d.id).map(presentField) })),
  };
}
