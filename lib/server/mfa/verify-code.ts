import "server-only";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { userMfa, type User } from "@/db/schema";
import { displayName, writeLog } from "../audit/write-log";
import { clearSubjectFailures, guessUnderThrottle, SUBJECT_FREE_ATTEMPTS, type ThrottleScope } from "../auth/throttle";
import { getPlatformConfig } from "../config/platform-config";
import type { RequestInfo } from "../context";
import { AppError } from "../errors";
import { queueMail } from "../mail/queue-mail";
import { mailTemplate, renderMail } from "../mail/render-mail";
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
 * per account and address, and per address), so codes cannot be tried faster than passwords,
 * and per account from every address (perSubject, with a lock that grows): whoever guesses knew
 * the password, so locking the second step of this account is theirs to cause, and many
 * addresses buy no more guesses (issue 25, finding 5). The first lock in a window mails the owner.
 * `guess` answers whether it was right; a wrong one counts, runs `onWrong` and throws `error`
 * (401 wrong_code by default).
 */
export async function throttledGuess(
  db: DbOrTx,
  user: User,
  request: RequestInfo,
  guess: () => Promise<boolean>,
  options: { onWrong?: () => Promise<void>; error?: () => AppError } = {},
): Promise<void> {
  const { right, subjectLocked } = await guessUnderThrottle(db, mfaThrottle(user.id, request.ip), guess);
  if (right) return;
  if (subjectLocked) await mailLockToOwner(db, user, request);
  await options.onWrong?.();
  throw (options.error ?? wrongCode)();
}

export const MFA_THROTTLE = "mfa";
const mfaThrottle = (userId: number, ip: string): ThrottleScope => ({ namespace: MFA_THROTTLE, subject: String(userId), ip, perSubject: true });

/** A new password lifts the account's second-factor lock (the guesser's password no longer works). */
export const liftMfaLock = (db: DbOrTx, userId: number) => clearSubjectFailures(db, MFA_THROTTLE, String(userId));

const MFA_LOCKED_MAIL = mailTemplate("mfaLocked");

async function mailLockToOwner(db: DbOrTx, user: User, request: RequestInfo): Promise<void> {
  await writeLog(db, { actor: null, request }, { type: "ADMLLOG_LOGIN_FAILED", ok: false, message: "Second step locked after repeated wrong codes from any address; the owner is mailed", objectType: "user", objectId: user.id, object: user.login });
  const to = user.email.split(",")[0]?.trim();
  if (!to) return;
  const { platform_name } = await getPlatformConfig(db);
  const mail = renderMail(MFA_LOCKED_MAIL, { recipient: displayName(user), platform: platform_name, login: user.login, ip: request.ip, attempts: String(SUBJECT_FREE_ATTEMPTS) }, { language: user.language });
  await queueMail(db, { to, ownerId: user.id, subject: mail.subject, text: mail.text, html: mail.html });
}
