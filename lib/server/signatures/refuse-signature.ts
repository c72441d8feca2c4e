import "server-only";
import { and, eq, ne } from "drizzle-orm";
import { signatureActors, signatureRequests } from "@/db/schema";
import type { RefuseInput, SignatureActorResponse } from "@/lib/contracts/signatures";
import type { Ctx } from "../context";
import { AppError } from "../errors";
import { initiatorOf } from "./notify-actors";
import { presentActor } from "./present-signatures";
import { recordActivity } from "./record-activity";
import { settleParent } from "./settle-parent";
import { actorName, actorRecipient, queueSignatureMail } from "./signature-mails";
import { openSignerOrThrow } from "./signer-access";

/**
 * POST /sign/(token)/refuse (api.md): the actor refuses with a reason; the request becomes
 * `refused` (every link dies) and every other actor and the initiator are mailed.
 */
export async function refuseSignature(ctx: Ctx, token: string, input: RefuseInput, base: string): Promise<SignatureActorResponse> {
  return ctx.db.transaction(async (tx) => {
    const { request, actor } = await openSignerOrThrow(tx, token, { forUpdate: true });
    if (actor.type === "follower") throw new AppError("forbidden", "A follower neither signs nor refuses");
    const now = new Date();
    const [refused] = await tx.update(signatureActors).set({ status: "refused", refuseReason: input.reason, refuseAt: now }).where(eq(signatureActors.id, actor.id)).returning();
    await tx.update(signatureRequests).set({ status: "refused", updatedAt: now, completedAt: now }).where(eq(signatureRequests.id, request.id));
    await recordActivity(tx, { signatureId: request.id, action: "signer.refused", from: actor.id, to: actor.id, userId: actor.userId, request: ctx.request, details: { reason: input.reason } });
    const vars = { signer: actorName(actor), reason: input.reason };
    const others = await tx.select().from(signatureActors).where(and(eq(signatureActors.signatureId, request.id), ne(signatureActors.id, actor.id)));
    for (const other of others) await queueSignatureMail(tx, "refused", actorRecipient(other), request, vars);
    const initiator = await initiatorOf(tx, request);
    if (initiator?.email) await queueSignatureMail(tx, "refused", { email: initiator.email, language: initiator.language, name: initiator.firstname }, request, vars);
    await settleParent(tx, request);
    return presentActor(refused, { base, withLink: false });
  });
}
