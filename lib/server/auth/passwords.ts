import "server-only";
import { type Algorithm, hash, verify } from "@node-rs/argon2";
import { AppError } from "../errors";

// Argon2id with the OWASP baseline (19 MiB, 2 passes). Algorithm is a const enum, which
// isolatedModules cannot read: 2 is its Argon2id member.
const ARGON2ID = 2 as Algorithm;
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 };

export const hashPassword = (password: string) => hash(password, OPTIONS);

export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (!stored) return false;
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

// A hash to verify against when the account does not exist, so timing does not reveal logins.
let dummy: Promise<string> | undefined;
export const dummyHash = () => (dummy ??= hashPassword("coffre-dummy-password"));

/** A weak password is a 403 with a clear message (contract: account update). */
export function assertStrongPassword(password: string, minLength: number): void {
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((re) => re.test(password)).length;
  if (password.length < minLength || classes < 2) {
    throw new AppError(
      "weak_password",
      `The password is too weak: use at least ${minLength} characters mixing letters with digits, capitals or symbols`,
    );
  }
}

/** A generated password that passes the policy. */
export function generatePassword(): string {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `${Array.from(bytes, (b) => alphabet[b % alphabet.length]).join("")}-7a`;
}
