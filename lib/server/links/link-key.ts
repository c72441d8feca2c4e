import "server-only";
import { randomBytes } from "node:crypto";

/** A new link key: 144 random bits, URL safe (24 characters), so keys cannot be guessed or enumerated. */
export const newLinkKey = (): string => randomBytes(18).toString("base64url");
