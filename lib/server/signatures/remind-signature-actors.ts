import "server-only";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { signatureActors, users, type SignatureActorRow, type SignatureRequestRow } from "@/db/schema";
import { displayName } from "../audit/write-log";
import type { AuthedCtx, RequestInfo } from "../context";
import { AppError } from "../errors";
import { recordActivity } from "./record-activity";
import { assertStatus, getActorOfOrThrow, getOwnSignatureOrThrow, isAwaitedType, isWaitingStatus } from "./signature-access";
import { actorRecipient, queueSignatureMail } from "./signature-mails";
import { makeToken, signingUrl } from "./signing-token";

/** Mails an awaited actor their link again and records `signer.reminded`. */
export async function remindActor(db: DbOrTx, request: SignatureRequestRow, actor: SignatureActorRow, base: string, info: RequestInfo | null, userId: number | null, message: string | null = null) {
  const [initiator] = await db.select().from(users).where(eq(users.id, request.userId));
  const link = signingUrl(base, await makeToken(actor.id, actor.tokenNonce!, "sign"));
  await queueSignatureMail(db, "remind", actorRecipient(actor), request, { actor: initiator ? displayName(initiator) : "", link }, { sensitive: true, message });
  await db
    .update(signatureActors)
    .set({ remindersSent: sql`${signatureActors.remindersSent} + 1`, lastRemindedAt: new Date() })
    .where(eq(signatureActors.id, actor.id));
  await recordActivity(db, { signatureId: request.id, action: "signer.reminded", to: actor.id, userId, request: info });
}

const awaited = (a: SignatureActorRow) => isAwaitedType(a.type) && isWaitingStatus(a.status) && a.tokenNonce !== null;

/**
 * POST /signatures/(id)/actors/remind (every actor whose turn it is) and
 * POST /signatures/(id)/actors/(actorId)/remind (one): 409 unless the request is ongoing and the
 * actor is awaited. An optional `message` of its own goes into these reminders. Returns who was reminded.
 */
export async function remindSignatureActors(ctx: AuthedCtx, signatureId: number, actorId: number | null, base: string, message: string | null = null): Promise<{ reminded: number[] }> {
  const user = ctx.actor.user;
  return ctx.db.transaction(async (tx) => {
    const request = await getOwnSignatureOrThrow(tx, user, signatureId, { forUpdate: true });
    assertStatus(request, ["ongoing"], "remind its actors");
    let targets: SignatureActorRow[];
    if (actorId !== null) {
      const actor = await getActorOfOrThrow(tx, request.id, actorId);
      if (!awaited(actor)) throw new AppError("signature_state", `This actor is not awaited (${actor.type}, ${actor.status})`, { status: request.status, actor_status: actor.status });
      targets = [actor];
    } else {
      const all = await tx.select().from(signatureActors).where(and(eq(signatureActors.signatureId, request.id), inArray(signatureActors.status, ["notified", "opened"])));
      targets = all.filter(awaited);
      if (targets.length === 0) throw new AppError("signature_state", "No actor is awaited right now", { status: request.status });
    }
    for (const actor of targets) await remindActor(tx, request, actor, base, ctx.request, user.id, message);
    return { reminded: targets.map((t) => t.id) };
  });
}
