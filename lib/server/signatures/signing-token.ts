import "server-only";
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { getAuthSecret } from "../auth/secret";

/**
 * Signing links (api.md: `BASE_URL/sign/<token>`). A token is `<actorId>.<nonce>.<mac>` with
 * mac = HMAC-SHA256(server secret, `actorId.nonce.purpose`): only the nonce is stored, so the
 * initiator's view can recompute the link, a database reader cannot forge one, and a new nonce
 * (or none) kills every earlier link of that actor. A token made for one purpose is worthless for
 * another (a copy link cannot sign).
 */
export type TokenPurpose = "sign" | "copy";

export const newNonce = () => randomBytes(16).toString("base64url");

async function mac(actorId: number, nonce: string, purpose: TokenPurpose): Promise<string> {
  return createHmac("sha256", await getAuthSecret()).update(`${actorId}.${nonce}.${purpose}`).digest("base64url");
}

export async function makeToken(actorId: number, nonce: string, purpose: TokenPurpose): Promise<string> {
  return `${actorId}.${nonce}.${await mac(actorId, nonce, purpose)}`;
}

/** The actor and nonce a token names when its MAC is right for `purpose` (constant-time), else null. */
export async function verifyToken(token: string, purpose: TokenPurpose): Promise<{ actorId: number; nonce: string } | null> {
  const match = /^([0-9]{1,10})\.([A-Za-z0-9_-]{8,64})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const actorId = Number(match[1]);
  if (!Number.isSafeInteger(actorId) || actorId <= 0) return null;
  const expected = Buffer.from(await mac(actorId, match[2], purpose));
  const given = Buffer.from(match[3]);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  return { actorId, nonce: match[2] };
}

/** Two stored/presented nonces, compared in constant time. */
export function sameNonce(stored: string | null, given: string): boolean {
  if (!stored) return false;
  const a = Buffer.from(stored);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

export const signingUrl = (base: string, token: string) => `${base}/sign/${token}`;
export const copyUrl = (base: string, token: string) => `${base}/api/sign/${token}/signed`;
