import "server-only";
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { getAuthSecret } from "../auth/secret";

// One key for providers' secrets, derived from the auth secret (HKDF-SHA256, its own label, so
// it is never the key that signs sessions). Changing AUTH_SECRET makes stored secrets unreadable:
// the provider then reports it and the administrator types them again.
const INFO = "coffre identity-provider secrets v1";
const SALT = "coffre.identity";

async function key(): Promise<Buffer> {
  return Buffer.from(hkdfSync("sha256", await getAuthSecret(), SALT, INFO, 32));
}

/** `v1.<iv>.<tag>.<ciphertext>` (base64url) of the JSON of `values`; null when there is nothing to keep. */
export async function encryptSecrets(values: Record<string, string>): Promise<string | null> {
  if (Object.keys(values).length === 0) return null;
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", await key(), iv);
  const data = Buffer.concat([cipher.update(JSON.stringify(values), "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), data].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
}

/** The stored secrets; a value that cannot be decrypted (another AUTH_SECRET) reads as none. */
export async function decryptSecrets(stored: string | null): Promise<Record<string, string>> {
  if (!stored) return {};
  const [version, iv, tag, data] = stored.split(".");
  if (version !== "v1" || !iv || !tag || data === undefined) return {};
  try {
    const decipher = createDecipheriv("aes-256-gcm", await key(), Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    const json = Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
    const parsed: unknown = JSON.parse(json);
    return parsed && typeof parsed === "object" ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}
