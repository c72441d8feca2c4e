import "server-only";
import type { ReauthInput } from "@/lib/contracts/account";
import { reauthenticate } from "../auth/reauthenticate";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { assertFactorAllowed, mfaOwner } from "./account-mfa";
import { createChallenge } from "./challenges";
import { loadUserFactors, maskPhone } from "./factors";
import { assertMaySendCode, sendCode } from "./sms-codes";

/**
 * POST /account/mfa/sms (api.md): texts a code to the number to set up (one message a minute),
 * re-authenticated: the code is what PUT needs to turn it on.
 */
export async function startSms(ctx: AuthedCtx, phone: string, input: ReauthInput) {
  const user = mfaOwner(ctx);
  await assertFactorAllowed(ctx.db, "sms");
  if ((await loadUserFactors(ctx.db, user.id)).sms) throw new AppError("conflict", "A phone is already set up for codes; remove it first");
  await reauthenticate(ctx, input);
  await assertMaySendCode(ctx.db, user.id);
  const { row } = await createChallenge(ctx.db, user.id, "sms_enrol", { phone });
  await sendCode(ctx.db, row, phone);
  return { phone: maskPhone(phone)! };
}
