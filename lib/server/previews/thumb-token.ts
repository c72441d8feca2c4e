import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { getAuthSecret } from "../auth/secret";

const HOUR = 3600;
/** A thumbnail token lives 24 to 25 hours (see signThumbToken). */
export const THUMB_TOKEN_TTL_SECONDS = 24 * HOUR;

export type ThumbTokenClaims = { versionId: number; userId: number };

/**
 * The File's `thumb_token`: lets an <img> load one version's thumbnail for one user without an
 * Authorization header. It is signed, not stored (listings sign one per file without writing),
 * and carries its expiry. The expiry is rounded up to the next hour, so that a listing asked for
 * again within the hour gives the same URLs and the browser's cache keeps working. One signer
 * serves a whole listing (the secret is read once).
 */
export async function thumbTokenSigner(now = Date.now()): Promise<(claims: ThumbTokenClaims) => string> {
  const key = await getAuthSecret();
  const expires = Math.ceil(now / 1000 / HOUR) * HOUR + THUMB_TOKEN_TTL_SECONDS;
  return (claims) => signWith(key, claims, expires);
}

/** The claims of a valid, unexpired token, or null. */
export async function verifyThumbToken(token: string, now = Date.now()): Promise<ThumbTokenClaims | null> {
  const match = /^(\d{1,10})\.(\d{1,10})\.(\d{1,12})\.([\w-]{43})$/.exec(token);
  if (!match) return null;
  const [, versionId, userId, expires] = match.map(Number);
  if (expires * 1000 <= now) return null;
  const expected = Buffer.from(signWith(await getAuthSecret(), { versionId, userId }, expires));
  const given = Buffer.from(token);
  return expected.length === given.length && timingSafeEqual(expected, given) ? { versionId, userId } : null;
}

function signWith(key: string, { versionId, userId }: ThumbTokenClaims, expires: number): string {
  const payload = `${versionId}.${userId}.${expires}`;
  // The purpose is part of what is signed, so no other signature of the same secret passes for this one.
  const signature = createHmac("sha256", key).update(`thumb:${payload}`).digest("base64url");
  return `${payload}.${signature}`;
}
