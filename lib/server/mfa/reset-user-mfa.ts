import "server-only";
import { eq } from "drizzle-orm";
import { mfaChallenges, mfaRecoveryCodes, mfaTotpSteps, mfaWebauthnCredentials, userMfa } from "@/db/schema";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { forbidden } from "../errors";
import { getLiveUserOrThrow } from "../users/user-access";

/**
 * DELETE /user/(userId)/mfa: an administrator removes every second factor of an account (a lost
 * phone or key), logged. The account's mfa_required stays: its owner must set one up again.
 */
export async function resetUserMfa(ctx: AuthedCtx, userId: number): Promise<void> {
  if (ctx.actor.user.role !== 3) throw forbidden("Only administrators reset second factors");
  await ctx.db.transaction(async (tx) => {
    const target = await getLiveUserOrThrow(tx, userId, { lock: true });
    await tx.delete(userMfa).where(eq(userMfa.userId, target.id));
    await tx.delete(mfaWebauthnCredentials).where(eq(mfaWebauthnCredentials.userId, target.id));
    await tx.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, target.id));
    await tx.delete(mfaChallenges).where(eq(mfaChallenges.userId, target.id));
    await tx.delete(mfaTotpSteps).where(eq(mfaTotpSteps.userId, target.id));
    await writeLog(tx, { actor: ctx.actor.user, request: ctx.request }, { type: "ADMLLOG_UPDATE", message: `Reset the second factors of user ${target.login}`, objectType: "user", objectId: target.id, object: target.login });
  });
}
