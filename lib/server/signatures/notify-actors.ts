import "server-only";
import { and, asc, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { signatureActors, signatureRequests, users, type SignatureActorRow, type SignatureRequestRow } from "@/db/schema";
import { displayName } from "../audit/write-log";
import type { RequestInfo } from "../context";
import { enqueueJob } from "../jobs/enqueue";
import { notifyUsers, usersWithEmail } from "../notifications/notify";
import { recordActivity } from "./record-activity";
import { isAwaitedType } from "./signature-access";
import { actorRecipient, queueSignatureMail } from "./signature-mails";
import { makeToken, newNonce, signingUrl } from "./signing-token";

export const COMPLETE_JOB = "signatures.complete";

export async function initiatorOf(db: DbOrTx, request: Pick<SignatureRequestRow, "userId">) {
  const [user] = await db.select().from(users).where(eq(users.id, request.userId));
  return user;
}

/**
 * Gives an actor their link and mails it (api.md: `BASE_URL/sign/<token>`): a fresh nonce makes
 * the token, the actor becomes `notified`, and the two invitation activities are written, in the
 * name of `byUserId`: whoever sent the request (the initiator or an administrator), or null when
 * the platform invites the next actor of an ordered request by itself.
 */
export async function notifyActor(db: DbOrTx, request: SignatureRequestRow, actor: SignatureActorRow, base: string, info: RequestInfo | null, byUserId: number | null): Promise<void> {
  const nonce = newNonce();
  await db.update(signatureActors).set({ tokenNonce: nonce, status: "notified", notifiedAt: new Date() }).where(eq(signatureActors.id, actor.id));
  await recordActivity(db, { signatureId: request.id, action: "signature_request.invitationCreated", to: actor.id, userId: byUserId, request: info });
  const initiator = await initiatorOf(db, request);
  const link = signingUrl(base, await makeToken(actor.id, nonce, "sign"));
  await queueSignatureMail(db, "invite", actorRecipient(actor), request, { actor: initiator ? displayName(initiator) : "", link }, { sensitive: true, message: request.message });
  await recordActivity(db, { signatureId: request.id, action: "signature_request.invitationSent", to: actor.id, userId: byUserId, request: info });
  // Issue 29: an actor with an account also finds the request in the app (the link stays in the mail).
  const accounts = actor.userId ? [actor.userId] : await usersWithEmail(db, [actor.email]);
  await notifyUsers(db, accounts, { type: "signature", actorId: request.userId, object: { type: "signature", id: request.id, name: request.name } });
}

/** Signers and approvers whose turn it is and who were not told yet: all of them, or the next by position when ordered. */
export async function actorsToNotify(db: DbOrTx, request: SignatureRequestRow): Promise<SignatureActorRow[]> {
  const actors = await db.select().from(signatureActors).where(eq(signatureActors.signatureId, request.id)).orderBy(asc(signatureActors.position), asc(signatureActors.id));
  const awaited = actors.filter((a) => isAwaitedType(a.type) && a.status !== "done");
  if (!(request.ordered && request.mode === "standard")) return awaited.filter((a) => a.status === "initiated");
  const next = awaited[0];
  return next && next.status === "initiated" ? [next] : [];
}

/**
 * After an actor finished: the next one is told (ordered), or, when every signer and approver is
 * done, the completion job is queued (idempotent: one pending job per request).
 */
export async function advanceRequest(db: DbOrTx, request: SignatureRequestRow, base: string, info: RequestInfo | null, byUserId: number | null = null): Promise<"completing" | "waiting"> {
  const awaited = await db
    .select({ id: signatureActors.id, status: signatureActors.status })
    .from(signatureActors)
    .where(and(eq(signatureActors.signatureId, request.id), inArray(signatureActors.type, ["signer", "approver"])));
  if (awaited.every((a) => a.status === "done")) {
    await enqueueJob(db, COMPLETE_JOB, { signatureId: request.id }, { dedupeKey: `${COMPLETE_JOB}:${request.id}`, maxAttempts: 10 });
    return "completing";
  }
  for (const actor of await actorsToNotify(db, request)) await notifyActor(db, request, actor, base, byUserId === null ? null : info, byUserId);
  return "waiting";
}

export async function lockRequest(db: DbOrTx, signatureId: number): Promise<SignatureRequestRow | undefined> {
  const [row] = await db.select().from(signatureRequests).where(eq(signatureRequests.id, signatureId)).for("update");
  return row;
}
