import "server-only";
import type { Ctx } from "../context";
import { AppError } from "../errors";
import { getSignInChallengeOrThrow } from "./challenges";
import { loadUserFactors, maskPhone } from "./factors";
import { assertMaySendCode, sendCode } from "./sms-codes";

/** POST /auth/mfa/sms: texts a code for a sign-in waiting for its second step (one a minute). */
export async function sendSignInCode(ctx: Ctx, mfaToken: string): Promise<{ phone: string }> {
  const challenge = await getSignInChallengeOrThrow(ctx.db, mfaToken);
  const factors = await loadUserFactors(ctx.db, challenge.userId);
  if (!factors.sms || !factors.smsPhone) throw new AppError("conflict", "This account receives no codes by SMS");
  await assertMaySendCode(ctx.db, challenge.userId);
  await sendCode(ctx.db, challenge, factors.smsPhone);
  return { phone: maskPhone(factors.smsPhone)! };
}
