import "server-only";
import { randomInt } from "node:crypto";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { mfaChallenges, type MfaChallenge } from "@/db/schema";
import { getPlatformConfig } from "../config/platform-config";
import { AppError } from "../errors";
import { sendSms } from "../sms/send-sms";
import { CHALLENGE_TTL_MS, lastCodeSentAt } from "./challenges";
import { keyedHash, sameHash } from "./secret-box";

/** One message a minute per account: enough for a lost one, too slow to flood a phone. */
const RESEND_AFTER_MS = 60_000;

const codeHash = (challengeId: number, code: string) => keyedHash("sms-code", `${challengeId}:${code}`);

/** Throws 429 while this account was sent a code less than a minute ago. */
export async function assertMaySendCode(db: DbOrTx, userId: number): Promise<void> {
  const last = await lastCodeSentAt(db, userId);
  if (!last) return;
  const wait = Math.ceil((last.getTime() + RESEND_AFTER_MS - Date.now()) / 1000);
  if (wait > 0) throw new AppError("too_many_requests", `A code was sent less than a minute ago; try again in ${wait} seconds`, undefined, { "Retry-After": String(wait) });
}

/** Sends a fresh 6-digit code for an exchange (it replaces the previous one). */
export async function sendCode(db: DbOrTx, challenge: MfaChallenge, phone: string): Promise<void> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
  await db.update(mfaChallenges).set({ codeHash: await codeHash(challenge.id, code), codeSentAt: new Date() }).where(eq(mfaChallenges.id, challenge.id));
  const { platform_name: platform } = await getPlatformConfig(db);
  await sendSms(db, phone, `${code} is your ${platform} verification code. It expires in 5 minutes. Never share it.`);
}

/** The code last sent for this exchange, still fresh. */
export async function codeMatches(challenge: MfaChallenge, code: string): Promise<boolean> {
  if (!challenge.codeHash || !challenge.codeSentAt) return false;
  if (Date.now() - challenge.codeSentAt.getTime() > CHALLENGE_TTL_MS) return false;
  return sameHash(challenge.codeHash, await codeHash(challenge.id, code));
}
