import "server-only";
import type { ReauthInput } from "@/lib/contracts/account";
import { reauthenticate } from "../auth/reauthenticate";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { dropRecoveryCodesIfNoFactor, logMfaChange, mfaOwner, presentMfaState, saveUserMfa } from "./account-mfa";
import { loadUserFactors } from "./factors";

/** DELETE /account/mfa/sms (beside api.md's POST and PUT): removes the phone, re-authenticated (`password`, or `code` without one). */
export async function disableSms(ctx: AuthedCtx, input: ReauthInput) {
  const user = mfaOwner(ctx);
  if (!(await loadUserFactors(ctx.db, user.id)).sms) throw new AppError("not_found", "No phone is set up for codes");
  await reauthenticate(ctx, input);
  await ctx.db.transaction(async (tx) => {
    await saveUserMfa(tx, user.id, { smsPhone: null, smsEnabledAt: null });
    await dropRecoveryCodesIfNoFactor(tx, user.id);
  });
  await logMfaChange(ctx, user, "Two-step verification: phone for SMS codes removed");
  return presentMfaState(ctx.db, user);
}
