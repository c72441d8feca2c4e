import "server-only";
import { and, eq, lt, max } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import type { DbOrTx } from "@/db";
import { mfaTotpSteps } from "@/db/schema";

// api.md: RFC 6238, SHA-1, 6 digits, 30 s (what every authenticator app reads from the QR code).
const PERIOD = 30;
const DIGITS = 6;
/** One step either side: a phone clock a little off still works. */
const WINDOW = 1;

export const newTotpSecret = () => new Secret({ size: 20 }).base32;

function totpOf(secret: string, label = "", issuer = "") {
  return new TOTP({ issuer, label, algorithm: "SHA1", digits: DIGITS, period: PERIOD, secret: Secret.fromBase32(secret) });
}

export const otpauthUrl = (secret: string, label: string, issuer: string) => totpOf(secret, label, issuer).toString();

/** The time step a code is valid for, or null when it matches none within the window. */
export function matchingStep(secret: string, code: string, now = Date.now()): number | null {
  const delta = totpOf(secret).validate({ token: code, timestamp: now, window: WINDOW });
  return delta === null ? null : Math.floor(now / 1000 / PERIOD) + delta;
}

/**
 * Accepts a TOTP code once (RFC 6238, 5.2): the step it belongs to is recorded, and a code of that
 * step or an earlier one is refused afterwards, so a code seen once (over a shoulder, in a proxy)
 * cannot be played again within its window. Returns false for a wrong or reused code.
 */
export async function consumeTotp(db: DbOrTx, userId: number, secret: string, code: string): Promise<boolean> {
  const step = matchingStep(secret, code);
  if (step === null) return false;
  const [last] = await db.select({ step: max(mfaTotpSteps.step) }).from(mfaTotpSteps).where(eq(mfaTotpSteps.userId, userId));
  if (last?.step !== null && last?.step !== undefined && Number(last.step) >= step) return false;
  // Two requests racing with the same code: the key on (user, step) lets one through.
  const inserted = await db.insert(mfaTotpSteps).values({ userId, step }).onConflictDoNothing().returning({ step: mfaTotpSteps.step });
  // Steps older than the window can never match again: no need to keep them.
  await db.delete(mfaTotpSteps).where(and(eq(mfaTotpSteps.userId, userId), lt(mfaTotpSteps.step, step - 2 * WINDOW - 1)));
  return inserted.length === 1;
}
