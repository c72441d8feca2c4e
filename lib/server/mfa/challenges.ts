import "server-only";
import { and, eq, gt, isNull, lt, max, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { mfaChallenges, type MfaChallenge } from "@/db/schema";
import { hashToken, newToken } from "../auth/tokens";
import { AppError } from "../errors";

/** api.md: the mfa_token of a sign-in lives 5 minutes; enrolment exchanges as long. */
export const CHALLENGE_TTL_MS = 5 * 60_000;
/** Wrong answers one sign-in may take before it must start again (the throttle counts too). */
export const MAX_ATTEMPTS = 5;

type Purpose = MfaChallenge["purpose"];

/** A new exchange for a user; that user's stale ones go, so the table never grows with sign-ins. */
export async function createChallenge(db: DbOrTx, userId: number, purpose: Purpose, values: Partial<Pick<MfaChallenge, "webauthnChallenge" | "phone">> = {}) {
  await db.delete(mfaChallenges).where(and(eq(mfaChallenges.userId, userId), lt(mfaChallenges.expiresAt, new Date())));
  // Enrolments keep one exchange in flight: a new registration or number replaces the previous one.
  if (purpose !== "sign_in") await db.delete(mfaChallenges).where(and(eq(mfaChallenges.userId, userId), eq(mfaChallenges.purpose, purpose)));
  const token = purpose === "sign_in" ? newToken() : null;
  const [row] = await db
    .insert(mfaChallenges)
    .values({ userId, purpose, tokenHash: token && hashToken(token), expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS), ...values })
    .returning();
  return { row, token };
}

const expired = () => new AppError("unauthorized", "This sign-in has expired or was already used; sign in again", { reason: "mfa_token_expired" });

/** The live sign-in an mfa_token names, or a 401. */
export async function getSignInChallengeOrThrow(db: DbOrTx, token: string): Promise<MfaChallenge> {
  const [row] = await db
    .select()
    .from(mfaChallenges)
    .where(and(eq(mfaChallenges.tokenHash, hashToken(token)), eq(mfaChallenges.purpose, "sign_in"), isNull(mfaChallenges.usedAt), gt(mfaChallenges.expiresAt, new Date())))
    .limit(1);
  if (!row) throw expired();
  return row;
}

/** The user's live enrolment exchange of a kind, or null. */
export async function findEnrolmentChallenge(db: DbOrTx, userId: number, purpose: Exclude<Purpose, "sign_in">): Promise<MfaChallenge | null> {
  const [row] = await db
    .select()
    .from(mfaChallenges)
    .where(and(eq(mfaChallenges.userId, userId), eq(mfaChallenges.purpose, purpose), isNull(mfaChallenges.usedAt), gt(mfaChallenges.expiresAt, new Date())))
    .limit(1);
  return row ?? null;
}

/** Marks an exchange used; false when another request used it first. */
export async function spendChallenge(db: DbOrTx, id: number): Promise<boolean> {
  const used = await db.update(mfaChallenges).set({ usedAt: new Date() }).where(and(eq(mfaChallenges.id, id), isNull(mfaChallenges.usedAt))).returning({ id: mfaChallenges.id });
  return used.length === 1;
}

/** Counts a wrong answer; past MAX_ATTEMPTS the exchange is spent. */
export async function countWrongAnswer(db: DbOrTx, id: number): Promise<void> {
  await db
    .update(mfaChallenges)
    .set({ attempts: sql`${mfaChallenges.attempts} + 1`, usedAt: sql`CASE WHEN ${mfaChallenges.attempts} + 1 >= ${MAX_ATTEMPTS} THEN now() ELSE ${mfaChallenges.usedAt} END` })
    .where(eq(mfaChallenges.id, id));
}

/** When this user was last sent an SMS code (any exchange), to pace the messages. */
export async function lastCodeSentAt(db: DbOrTx, userId: number): Promise<Date | null> {
  const [row] = await db.select({ at: max(mfaChallenges.codeSentAt) }).from(mfaChallenges).where(eq(mfaChallenges.userId, userId));
  return row?.at ? new Date(row.at) : null;
}
