import "server-only";
import { randomBytes } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { sessions } from "@/db/schema";
import type { RequestInfo } from "../context";
import { hashToken } from "../auth/tokens";

/**
 * App passwords (api.md, "Account security") are rows of `sessions`: kind `app_password`, a name,
 * no parent. The sessions POST /auth opens with one have the same kind and the app password as
 * parent (ended with it). They carry the `files` scopes only.
 */
export const APP_PASSWORD_KIND = "app_password";
export const APP_PASSWORD_SCOPE = "files.readwrite";

// 32 letters and digits without look-alikes (0/o, 1/l): a byte modulo 32 picks one without bias.
const ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789";
const GROUPS = 5;
const GROUP_LENGTH = 6;
const SHAPE = new RegExp(`^[${ALPHABET}]{${GROUP_LENGTH}}(-[${ALPHABET}]{${GROUP_LENGTH}}){${GROUPS - 1}}$`);

/**
 * Five groups of six (150 random bits), easy to read out into a file manager's dialog. Only its
 * SHA-256 is stored, like session tokens: with 150 bits chosen by us, no dictionary or offline
 * search applies, and WebDAV Basic checks it on every request by one indexed lookup, where
 * Argon2id would cost its 19 MiB and tens of milliseconds each time (measured in the report).
 */
export function generateAppPassword(): string {
  const bytes = randomBytes(GROUPS * GROUP_LENGTH);
  const chars = Array.from(bytes, (b) => ALPHABET[b % ALPHABET.length]);
  return Array.from({ length: GROUPS }, (_, i) => chars.slice(i * GROUP_LENGTH, (i + 1) * GROUP_LENGTH).join("")).join("-");
}

/** Whether a presented password has an app password's shape (so WebDAV checks it as one). */
export const isAppPasswordShaped = (password: string) => SHAPE.test(password.trim().toLowerCase());

/** The app password rows themselves (not the sessions opened with them). */
export const appPasswordRows = (userId: number) => and(eq(sessions.userId, userId), eq(sessions.kind, APP_PASSWORD_KIND), isNull(sessions.parentId));

/** The app password of `userId` that `password` is, if any. */
export async function findAppPassword(db: DbOrTx, userId: number, password: string) {
  const [row] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(appPasswordRows(userId), eq(sessions.tokenHash, hashToken(password.trim().toLowerCase()))))
    .limit(1);
  return row;
}

const TOUCH_EVERY_MS = 30_000;

/** Records where and when an app password was last used (its row in the sessions list). */
export async function touchAppPassword(db: DbOrTx, id: number, request: RequestInfo, lastUsedAt: Date | null) {
  if (lastUsedAt && Date.now() - lastUsedAt.getTime() < TOUCH_EVERY_MS) return;
  await db.update(sessions).set({ lastUsedAt: new Date(), ip: request.ip, userAgent: request.userAgent }).where(eq(sessions.id, id));
}
