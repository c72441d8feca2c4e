import "server-only";
import { and, eq } from "drizzle-orm";
import { mfaWebauthnCredentials } from "@/db/schema";
import type { ReauthInput } from "@/lib/contracts/account";
import { reauthenticate } from "../auth/reauthenticate";
import type { AuthedCtx } from "../context";
import { notFound } from "../errors";
import { dropRecoveryCodesIfNoFactor, logMfaChange, mfaOwner } from "./account-mfa";

/**
 * DELETE /account/mfa/webauthn/(id) (api.md): removes one of the caller's own security keys
 * (another's is a 404), re-authenticated.
 */
export async function deleteWebauthn(ctx: AuthedCtx, credentialId: number, input: ReauthInput): Promise<void> {
  const user = mfaOwner(ctx);
  await reauthenticate(ctx, input);
  const removed = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .delete(mfaWebauthnCredentials)
      .where(and(eq(mfaWebauthnCredentials.id, credentialId), eq(mfaWebauthnCredentials.userId, user.id)))
      .returning({ name: mfaWebauthnCredentials.name });
    if (!row) throw notFound("Security key");
    await dropRecoveryCodesIfNoFactor(tx, user.id);
    return row;
  });
  await logMfaChange(ctx, user, `Two-step verification: security key "${removed.name}" removed`);
}
