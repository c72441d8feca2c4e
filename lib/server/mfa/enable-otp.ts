import "server-only";
import { eq } from "drizzle-orm";
import { userMfa } from "@/db/schema";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { assertFactorAllowed, logMfaChange, wrongEnrolmentCode, mfaOwner, presentMfaState, recoveryCodesIfNone, saveUserMfa } from "./account-mfa";
import { unseal } from "./secret-box";
import { consumeTotp } from "./totp";
import { throttledGuess } from "./verify-code";

/** A pending secret not confirmed within this time must be asked for again. */
const PENDING_TTL_MS = 30 * 60_000;

/**
 * PUT /account/mfa/otp (api.md): the first code from the app proves it holds the secret; the
 * secret becomes the account's. The first factor brings recovery codes, returned this once.
 */
export async function enableOtp(ctx: AuthedCtx, code: string) {
  const user = mfaOwner(ctx);
  await assertFactorAllowed(ctx.db, "otp");
  const [row] = await ctx.db.select().from(userMfa).where(eq(userMfa.userId, user.id)).limit(1);
  if (row?.otpEnabledAt) throw new AppError("conflict", "An authenticator app is already set up");
  if (!row?.otpPendingSecret || !row.otpPendingAt || Date.now() - row.otpPendingAt.getTime() > PENDING_TTL_MS) {
    throw new AppError("conflict", "No authenticator setup in progress: start again with POST /api/account/mfa/otp");
  }
  const secret = await unseal(row.otpPendingSecret);
  await throttledGuess(ctx.db, user, ctx.request, () => consumeTotp(ctx.db, user.id, secret, code), {
    error: wrongEnrolmentCode,
  });
  const recoveryCodes = await ctx.db.transaction(async (tx) => {
    await saveUserMfa(tx, user.id, { otpSecret: row.otpPendingSecret, otpEnabledAt: new Date(), otpPendingSecret: null, otpPendingAt: null });
    return recoveryCodesIfNone(tx, user.id);
  });
  await logMfaChange(ctx, user, "Two-step verification: authenticator app set up");
  return { ...(await presentMfaState(ctx.db, user)), ...(recoveryCodes ? { recovery_codes: recoveryCodes } : {}) };
}
