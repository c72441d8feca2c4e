import "server-only";
import type { ConfirmInput } from "@/lib/contracts/mfa";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { confirmOwner, dropRecoveryCodesIfNoFactor, logMfaChange, mfaOwner, presentMfaState, saveUserMfa } from "./account-mfa";
import { loadUserFactors } from "./factors";

/** DELETE /account/mfa/sms (beside api.md's POST and PUT): removes the phone, confirmed by the password or a TOTP code. */
export async function disableSms(ctx: AuthedCtx, input: ConfirmInput) {
  const user = mfaOwner(ctx);
  if (!(await loadUserFactors(ctx.db, user.id)).sms) throw new AppError("not_found", "No phone is set up for codes");
  await confirmOwner(ctx, user, input);
  await ctx.db.transaction(async (tx) => {
    await saveUserMfa(tx, user.id, { smsPhone: null, smsEnabledAt: null });
    await dropRecoveryCodesIfNoFactor(tx, user.id);
  });
  await logMfaChange(ctx, user, "Two-step verification: phone for SMS codes removed");
  return presentMfaState(ctx.db, user);
}
