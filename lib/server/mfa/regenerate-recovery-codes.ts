import "server-only";
import type { ReauthInput } from "@/lib/contracts/account";
import { reauthenticate } from "../auth/reauthenticate";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { logMfaChange, mfaOwner } from "./account-mfa";
import { hasFactor, loadUserFactors } from "./factors";
import { replaceRecoveryCodes } from "./recovery-codes";

/** POST /account/mfa/recovery: a new set of recovery codes (the old ones stop working), shown once, re-authenticated. */
export async function regenerateRecoveryCodes(ctx: AuthedCtx, input: ReauthInput) {
  const user = mfaOwner(ctx);
  if (!hasFactor(await loadUserFactors(ctx.db, user.id))) throw new AppError("conflict", "Set up a second factor first");
  await reauthenticate(ctx, input);
  const codes = await replaceRecoveryCodes(ctx.db, user.id);
  await logMfaChange(ctx, user, "Two-step verification: new recovery codes");
  return { recovery_codes: codes };
}
