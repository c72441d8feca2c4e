import "server-only";
import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import type { CompleteSignInInput } from "@/lib/contracts/mfa";
import { writeLog } from "../audit/write-log";
import type { Ctx } from "../context";
import { AppError } from "../errors";
import { getLiveUserOrThrow } from "../users/user-access";
import { countWrongAnswer, getSignInChallengeOrThrow, spendChallenge } from "./challenges";
import { loadUserFactors } from "./factors";
import { openSecondStepSession, type SessionKind } from "./open-session";
import { consumeRecoveryCode } from "./recovery-codes";
import type { RelyingParty } from "./relying-party";
import { codeMatches } from "./sms-codes";
import { checkOtp, throttledGuess } from "./verify-code";
import { verifyAssertion } from "./webauthn";

/**
 * POST /auth/mfa (api.md): answers the second step of a sign-in with a TOTP code, the SMS code
 * sent for it, a security key's signature or a recovery code, and opens the session (`kind` web
 * for the web sign-in). Wrong answers are throttled like passwords and spend the mfa_token after
 * five; a right one spends it at once, so a token never opens two sessions.
 */
export async function completeSignIn(ctx: Ctx, input: CompleteSignInInput, options: { kind: SessionKind; rp: RelyingParty | null }) {
  const challenge = await getSignInChallengeOrThrow(ctx.db, input.mfa_token);
  const user = await getLiveUserOrThrow(ctx.db, challenge.userId).catch(() => {
    throw new AppError("unauthorized", "This account no longer exists");
  });
  const factors = await loadUserFactors(ctx.db, user.id);
  const code = input.code?.replace(/\s/g, "") ?? "";

  const guess = async (): Promise<boolean> => {
    switch (input.method) {
      case "otp":
        return factors.otp && checkOtp(ctx.db, user.id, code);
      case "sms":
        return factors.sms && codeMatches(challenge, code);
      case "recovery":
        return consumeRecoveryCode(ctx.db, user.id, code);
      case "webauthn":
        if (!options.rp || !challenge.webauthnChallenge || !input.response) return false;
        return factors.webauthn > 0 && verifyAssertion(ctx.db, user.id, options.rp, challenge.webauthnChallenge, input.response as unknown as AuthenticationResponseJSON);
    }
  };
  const onWrong = async () => {
    await countWrongAnswer(ctx.db, challenge.id);
    await writeLog(ctx.db, { actor: user, request: ctx.request }, { type: "ADMLLOG_LOGIN_FAILED", ok: false, message: `Wrong second-factor answer (${input.method})`, objectType: "user", objectId: user.id, object: user.login });
  };
  await throttledGuess(ctx.db, user, ctx.request, guess, { onWrong });
  if (!(await spendChallenge(ctx.db, challenge.id))) throw new AppError("unauthorized", "This sign-in was already used; sign in again", { reason: "mfa_token_expired" });
  return openSecondStepSession(ctx, user, options.kind, input.method);
}
