import "server-only";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { signatureActors, signatureRequests, type SignatureActorRow, type SignatureRequestRow } from "@/db/schema";
import { AppError } from "../errors";
import { sameNonce, verifyToken, type TokenPurpose } from "./signing-token";

export type SignerSession = { request: SignatureRequestRow; actor: SignatureActorRow };

const unknownLink = () => new AppError("not_found", "This signing link does not exist");

/** The actor and request behind a token, whatever their state; a forged, stale or foreign token is a 404. */
export async function findSignerOrThrow(db: DbOrTx, token: string, purpose: TokenPurpose, options: { forUpdate?: boolean } = {}): Promise<SignerSession> {
  const claim = await verifyToken(token, purpose);
  if (!claim) throw unknownLink();
  const query = db
    .select({ actor: signatureActors, request: signatureRequests })
    .from(signatureActors)
    .innerJoin(signatureRequests, eq(signatureRequests.id, signatureActors.signatureId))
    .where(eq(signatureActors.id, claim.actorId))
    .limit(1);
  const [row] = options.forUpdate ? await query.for("update") : await query;
  if (!row || !sameNonce(row.actor.tokenNonce, claim.nonce)) throw unknownLink();
  return row;
}

/**
 * A link that still works (api.md): a cancelled request is 410 `signing_cancelled`, an expired
 * one `signing_expired`, a refused one `signing_refused`, and once this actor finished (or the
 * request is done) `signing_done`.
 */
export function assertLinkAlive({ request, actor }: SignerSession): void {
  if (request.status === "cancelled" || request.deletedAt) throw new AppError("signing_cancelled", "This signature request was cancelled");
  if (request.status === "expired" || (request.status === "ongoing" && request.expirationDate && request.expirationDate.getTime() <= Date.now())) {
    throw new AppError("signing_expired", "This signature request has expired");
  }
  if (actor.status === "done" || request.status === "done") throw new AppError("signing_done", "This link was used: the documents are already signed or approved");
  if (request.status === "refused" || actor.status === "refused") throw new AppError("signing_refused", "This signature request was refused");
  if (request.status !== "ongoing" || (actor.status !== "notified" && actor.status !== "opened")) throw new AppError("not_found", "This signing link does not exist");
}

export async function openSignerOrThrow(db: DbOrTx, token: string, options: { forUpdate?: boolean } = {}): Promise<SignerSession> {
  const session = await findSignerOrThrow(db, token, "sign", options);
  assertLinkAlive(session);
  return session;
}

/** A one-time code before signing: the advanced level asks for it, and so does a phone on the actor (issue 14). */
export function needsCode(request: Pick<SignatureRequestRow, "level">, actor: Pick<SignatureActorRow, "signatureLevel" | "phone" | "type">): boolean {
  if (actor.type === "follower") return false;
  return (actor.signatureLevel ?? request.level) === "advanced_electronic_signature" || Boolean(actor.phone);
}
