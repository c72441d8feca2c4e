import "server-only";
import { createHash, randomBytes } from "node:crypto";

/** A new random token, URL safe; only its hash is ever stored. */
export const newToken = (bytes = 32) => randomBytes(bytes).toString("base64url");
export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
