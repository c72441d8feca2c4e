import "server-only";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { assertFactorAllowed, logMfaChange, mfaOwner, presentMfaState, recoveryCodesIfNone, saveUserMfa, wrongEnrolmentCode } from "./account-mfa";
import { countWrongAnswer, findEnrolmentChallenge, spendChallenge } from "./challenges";
import { codeMatches } from "./sms-codes";
import { throttledGuess } from "./verify-code";

/** PUT /account/mfa/sms (api.md): the code received proves the phone; it then receives sign-in codes. */
export async function enableSms(ctx: AuthedCtx, code: string) {
  const user = mfaOwner(ctx);
  await assertFactorAllowed(ctx.db, "sms");
  const challenge = await findEnrolmentChallenge(ctx.db, user.id, "sms_enrol");
  if (!challenge?.phone) throw new AppError("conflict", "No phone setup in progress: start again with POST /api/account/mfa/sms");
  await throttledGuess(ctx.db, user, ctx.request, () => codeMatches(challenge, code), { onWrong: () => countWrongAnswer(ctx.db, challenge.id), error: wrongEnrolmentCode });
  const recoveryCodes = await ctx.db.transaction(async (tx) => {
    if (!(await spendChallenge(tx, challenge.id))) throw new AppError("conflict", "This code was already used");
    await saveUserMfa(tx, user.id, { smsPhone: challenge.phone, smsEnabledAt: new Date() });
    return recoveryCodesIfNone(tx, user.id);
  });
  await logMfaChange(ctx, user, "Two-step verification: phone for SMS codes set up");
  return { ...(await presentMfaState(ctx.db, user)), ...(recoveryCodes ? { recovery_codes: recoveryCodes } : {}) };
}
