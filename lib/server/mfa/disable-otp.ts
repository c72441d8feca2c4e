import "server-only";
import type { ReauthInput } from "@/lib/contracts/account";
import { reauthenticate } from "../auth/reauthenticate";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { dropRecoveryCodesIfNoFactor, logMfaChange, mfaOwner, presentMfaState, saveUserMfa } from "./account-mfa";
import { loadUserFactors } from "./factors";

/** DELETE /account/mfa/otp (api.md): removes the authenticator app, re-authenticated (`password`, or `code` without one). */
export async function disableOtp(ctx: AuthedCtx, input: ReauthInput) {
  const user = mfaOwner(ctx);
  if (!(await loadUserFactors(ctx.db, user.id)).otp) throw new AppError("not_found", "No authenticator app is set up");
  await reauthenticate(ctx, input);
  await ctx.db.transaction(async (tx) => {
    await saveUserMfa(tx, user.id, { otpSecret: null, otpEnabledAt: null, otpPendingSecret: null, otpPendingAt: null });
    await dropRecoveryCodesIfNoFactor(tx, user.id);
  });
  await logMfaChange(ctx, user, "Two-step verification: authenticator app removed");
  return presentMfaState(ctx.db, user);
}
