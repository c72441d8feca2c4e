import "server-only";
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * A validator's (or flux 2 signer's) link: `<participant id>.<secret>`. The id finds the row,
 * the secret proves the link; only SHA-256("workflow:" + secret) is stored, so a leaked table
 * opens nothing, and the purpose in the hash keeps a secret of another kind of link from ever
 * matching. 256 random bits, base64url (43 characters).
 */
export function newParticipantSecret(): { secret: string; hash: string } {
  const secret = randomBytes(32).toString("base64url");
  return { secret, hash: hashSecret(secret) };
}

const hashSecret = (secret: string) => createHash("sha256").update(`workflow:${secret}`).digest("hex");

export const participantToken = (participantId: number, secret: string) => `${participantId}.${secret}`;

export function parseParticipantToken(token: string): { participantId: number; secret: string } | null {
  const match = /^([0-9]{1,10})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const participantId = Number(match[1]);
  return Number.isSafeInteger(participantId) && participantId > 0 ? { participantId, secret: match[2] } : null;
}

/** Constant-time comparison of a presented secret with the stored hash. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const given = Buffer.from(hashSecret(secret), "hex");
  const stored = Buffer.from(storedHash, "hex");
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/** The page a link opens (api.md: `BASE_URL/workflow/<token>`). */
export const workflowUrl = (base: string, token: string) => `${base}/workflow/${token}`;
