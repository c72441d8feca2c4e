import "server-only";
import type { User } from "@/db/schema";
import type { MfaRequiredDetails } from "@/lib/contracts/mfa";
import { writeLog } from "../audit/write-log";
import type { Ctx } from "../context";
import { AppError } from "../errors";
import { createChallenge } from "./challenges";
import { countRecoveryCodes, hasFactor, loadUserFactors, maskPhone, signInMethods } from "./factors";
import { checkOtp, throttledGuess } from "./verify-code";

/**
 * The second step of every sign-in, called once the first factor (a password, a directory bind,
 * an SSO assertion) is right and just before the session opens. An account without a second
 * factor passes. With one, a TOTP `code` given beside the password (POST /auth) is checked here
 * (throttled, single use); otherwise this throws the 401 `mfa_required` of api.md with
 * `details: {methods, mfa_token}`, and POST /auth/mfa (or the web sign-in's second step) finishes.
 */
export async function secondFactorGate(ctx: Ctx, user: User, input: { code?: string | null }): Promise<void> {
  const factors = await loadUserFactors(ctx.db, user.id);
  if (!hasFactor(factors)) return;

  const code = input.code?.replace(/\s/g, "");
  if (code && factors.otp) {
    const onWrong = () =>
      writeLog(ctx.db, { actor: user, request: ctx.request }, { type: "ADMLLOG_LOGIN_FAILED", ok: false, message: "Wrong second-factor code (otp)", objectType: "user", objectId: user.id, object: user.login });
    await throttledGuess(ctx.db, user, ctx.request, () => checkOtp(ctx.db, user.id, code), { onWrong });
    return;
  }

  const { token } = await createChallenge(ctx.db, user.id, "sign_in");
  const details: MfaRequiredDetails = { methods: signInMethods(factors, await countRecoveryCodes(ctx.db, user.id)), mfa_token: token! };
  if (factors.sms) details.phone = maskPhone(factors.smsPhone)!;
  throw new AppError("mfa_required", "A second factor is required: answer with POST /api/auth/mfa", details);
}
