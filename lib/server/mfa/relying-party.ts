import "server-only";
import { AppError } from "../errors";

/**
 * The WebAuthn relying party: its id (a host name) and the origin browsers sign. From BASE_URL when
 * it is an absolute address; otherwise from the request (Host / X-Forwarded-*), as next-auth does
 * without NEXTAUTH_URL. A key registered under one host name only works under that one.
 */
export type RelyingParty = { rpID: string; origin: string };

export function relyingParty(headers: Headers, url?: string): RelyingParty {
  const base = process.env.BASE_URL?.trim() ?? "";
  if (/^https?:\/\//i.test(base) && URL.canParse(base)) {
    const parsed = new URL(base);
    return { rpID: parsed.hostname, origin: parsed.origin };
  }
  const fromUrl = url && URL.canParse(url) ? new URL(url) : null;
  const host = first(headers.get("x-forwarded-host")) ?? headers.get("host") ?? fromUrl?.host ?? "localhost";
  const proto = first(headers.get("x-forwarded-proto")) ?? fromUrl?.protocol.replace(":", "") ?? "http";
  const address = `${proto === "https" ? "https" : "http"}://${host}`;
  if (!URL.canParse(address)) throw new AppError("invalid_request", "The request's Host header is not a host name");
  const origin = new URL(address);
  return { rpID: origin.hostname, origin: origin.origin };
}

const first = (value: string | null) => value?.split(",")[0]?.trim() || null;
