import "server-only";
import { eq } from "drizzle-orm";
import { signatureActors } from "@/db/schema";
import type { AuthedCtx } from "../context";
import { getActorOfOrThrow, getEditableDraftOrThrow, touch } from "./signature-access";

/** DELETE /signatures/(id)/actors/(actorId): drafts only; the actor's fields go with them. 204. */
export async function deleteSignatureActor(ctx: AuthedCtx, signatureId: number, actorId: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const request = await getEditableDraftOrThrow(tx, ctx.actor.user, signatureId, "remove an actor");
    const actor = await getActorOfOrThrow(tx, request.id, actorId);
    await tx.delete(signatureActors).where(eq(signatureActors.id, actor.id));
    await touch(tx, request.id);
  });
}
