import "server-only";
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
import { getAuthSecret } from "../auth/secret";

// Keys are derived from the platform's auth secret (AUTH_SECRET, or the one kept in the database),
// one per use, so a leaked database alone opens nothing and one key never serves two purposes.
const keys = new Map<string, Promise<Buffer>>();

function keyFor(purpose: string): Promise<Buffer> {
  let key = keys.get(purpose);
  if (!key) {
    key = getAuthSecret().then((secret) => Buffer.from(hkdfSync("sha256", secret, "coffre-mfa", purpose, 32)));
    keys.set(purpose, key);
  }
  return key;
}

/** AES-256-GCM: `v1.<iv>.<tag>.<ciphertext>`, base64url. */
export async function seal(plain: string): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", await keyFor("totp-secret"), iv);
  const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), data].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
}

export async function unseal(sealed: string): Promise<string> {
  const [version, iv, tag, data] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || data === undefined) throw new Error("Unknown sealed secret format");
  const decipher = createDecipheriv("aes-256-gcm", await keyFor("totp-secret"), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
}

/** A keyed hash for short secrets (SMS and recovery codes): without the key, a dump cannot be brute-forced. */
export async function keyedHash(purpose: string, value: string): Promise<string> {
  return createHmac("sha256", await keyFor(`hash:${purpose}`)).update(value).digest("hex");
}

export function sameHash(a: string | null, b: string): boolean {
  if (!a || a.length !== b.length) return false;
  return timingSafeEqual(Buffer.from(a), Buffer.from(b));
}
