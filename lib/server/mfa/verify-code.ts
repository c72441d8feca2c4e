import "server-only";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { userMfa, type User } from "@/db/schema";
import { assertNotThrottled, clearFailures, recordFailure } from "../auth/throttle";
import type { RequestInfo } from "../context";
import { AppError } from "../errors";
import { unseal } from "./secret-box";
import { consumeTotp } from "./totp";

/** The enabled TOTP secret of a user, decrypted, or null. */
export async function enabledOtpSecret(db: DbOrTx, userId: number): Promise<string | null> {
  const [row] = await db.select({ secret: userMfa.otpSecret, enabledAt: userMfa.otpEnabledAt }).from(userMfa).where(eq(userMfa.userId, userId)).limit(1);
  return row?.secret && row.enabledAt ? unseal(row.secret) : null;
}

/** A TOTP code for the user's enabled secret, accepted once. */
export async function checkOtp(db: DbOrTx, userId: number, code: string): Promise<boolean> {
  const secret = await enabledOtpSecret(db, userId);
  return secret !== null && /^\d{6}$/.test(code) && consumeTotp(db, userId, secret, code);
}

export const wrongCode = () => new AppError("unauthorized", "The code is wrong, expired or already used", { reason: "wrong_code" });

/**
 * Runs one guess at a second-factor secret under the sign-in throttle (reused from passwords:
 * per account and address, and per address), so codes cannot be tried faster than passwords.
 * `guess` answers whether it was right; a wrong one counts, runs `onWrong` and throws `error`
 * (401 wrong_code by default).
 */
export async function throttledGuess(
  db: DbOrTx,
  user: Pick<User, "id">,
  request: RequestInfo,
  guess: () => Promise<boolean>,
  options: { onWrong?: () => Promise<void>; error?: () => AppError } = {},
): Promise<void> {
  const scope = { namespace: "mfa", subject: String(user.id), ip: request.ip };
  await assertNotThrottled(db, scope);
  if (await guess()) {
    await clearFailures(db, scope);
    return;
  }
  await recordFailure(db, scope);
  await options.onWrong?.();
  throw (options.error ?? wrongCode)();
}
