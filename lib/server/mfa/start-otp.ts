import "server-only";
import type { ReauthInput } from "@/lib/contracts/account";
import { reauthenticate } from "../auth/reauthenticate";
import { getPlatformConfig } from "../config/platform-config";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { assertFactorAllowed, mfaOwner, saveUserMfa } from "./account-mfa";
import { loadUserFactors } from "./factors";
import { seal } from "./secret-box";
import { newTotpSecret, otpauthUrl } from "./totp";

/**
 * POST /account/mfa/otp (api.md): a new pending TOTP secret for the authenticator app (as text and
 * as an otpauth:// address for the QR code), re-authenticated: the secret is what PUT needs to
 * turn it on, so this is where a session alone stops. Nothing changes at sign-in until PUT confirms it.
 */
export async function startOtp(ctx: AuthedCtx, input: ReauthInput) {
  const user = mfaOwner(ctx);
  await assertFactorAllowed(ctx.db, "otp");
  if ((await loadUserFactors(ctx.db, user.id)).otp) throw new AppError("conflict", "An authenticator app is already set up; remove it first");
  await reauthenticate(ctx, input);
  const secret = newTotpSecret();
  await saveUserMfa(ctx.db, user.id, { otpPendingSecret: await seal(secret), otpPendingAt: new Date() });
  const { platform_name: issuer } = await getPlatformConfig(ctx.db);
  return { secret, otpauth_url: otpauthUrl(secret, user.login, issuer) };
}
