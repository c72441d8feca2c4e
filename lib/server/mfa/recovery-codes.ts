import "server-only";
import { randomInt } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { mfaRecoveryCodes } from "@/db/schema";
import { keyedHash } from "./secret-box";

const COUNT = 10;
// Crockford-like: no 0/O, 1/I/L to misread on paper.
const ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz";

/** "k7mq-x2pd-9h": 10 characters (about 49 bits), grouped to be copied by hand. */
function newCode(): string {
  const chars = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
  return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8)}`;
}

const normalise = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, "");
const hashCode = (userId: number, code: string) => keyedHash("recovery-code", `${userId}:${normalise(code)}`);

/** A new set of codes replacing any earlier one; the plain codes are returned once and never stored. */
export async function replaceRecoveryCodes(db: DbOrTx, userId: number): Promise<string[]> {
  const codes = Array.from({ length: COUNT }, newCode);
  await db.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
  await db.insert(mfaRecoveryCodes).values(await Promise.all(codes.map(async (code) => ({ userId, codeHash: await hashCode(userId, code) }))));
  return codes;
}

/** Spends one code; false when it is wrong or was used already (single use, even under races). */
export async function consumeRecoveryCode(db: DbOrTx, userId: number, code: string): Promise<boolean> {
  if (normalise(code).length !== 10) return false;
  const used = await db
    .update(mfaRecoveryCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(mfaRecoveryCodes.userId, userId), eq(mfaRecoveryCodes.codeHash, await hashCode(userId, code)), isNull(mfaRecoveryCodes.usedAt)))
    .returning({ id: mfaRecoveryCodes.id });
  return used.length === 1;
}
