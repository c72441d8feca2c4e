import "server-only";
import { timingSafeEqual } from "node:crypto";
import { getAuthOptions } from "../auth/next-auth-options";
import { hashToken, newToken } from "../auth/tokens";
import { safeReturnPath } from "../http/return-path";
import { configuredBaseUrl } from "../mail/app-url";

// What the SSO routes share: the addresses given to providers, the browser-binding cookie, and
// the redirects a browser follows. Only BASE_URL makes these addresses stable (entity ID, redirect
// URI); without it they follow the host the browser used, as next-auth does.

/**
 * The app's public origin: BASE_URL, else the one next-auth derives (the forwarded host and scheme,
 * which server.ts accepts only from trusted proxies and Next fills in from Host otherwise). Not
 * the request URL's: behind server.ts, Next builds it from the name the server was started with
 * (localhost), so a browser at 127.0.0.1 would be sent back to another host than its cookies'.
 */
export function publicOrigin(req: Request): string {
  const configured = configuredBaseUrl();
  if (configured) return configured;
  const host = req.headers.get("x-forwarded-host")?.split(",")[0].trim() || req.headers.get("host");
  if (!host || !/^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host)) return new URL(req.url).origin;
  const proto = req.headers.get("x-forwarded-proto")?.split(",")[0].trim() ?? new URL(req.url).protocol.slice(0, -1);
  return `${proto === "https" ? "https" : "http"}://${host}`;
}

/** The addresses of one provider's flows; the SAML entity ID is its metadata address. */
export function ssoUrls(req: Request, providerId: number) {
  const base = `${publicOrigin(req)}/api/sso/${providerId}`;
  return { login: `${base}/login`, callback: `${base}/callback`, acs: `${base}/saml/acs`, metadata: `${base}/saml/metadata` };
}

/** The path the sign-in page's buttons link to. */
export const loginPath = (providerId: number) => `/api/sso/${providerId}/login`;

/**
 * Whether cookies must be Secure, decided as next-auth decides for its own session cookie
 * (NEXTAUTH_URL, which BASE_URL sets, else the forwarded scheme, https unless it says http), so
 * the SSO session cookie has the very name next-auth reads.
 */
export async function usesSecureCookies(req: Request): Promise<boolean> {
  await getAuthOptions(); // sets NEXTAUTH_URL from BASE_URL, as every next-auth request does first
  const configured = process.env.NEXTAUTH_URL;
  if (configured) return configured.startsWith("https://");
  return req.headers.get("x-forwarded-proto") !== "http";
}

/**
 * The browser binding: a random value in an HttpOnly cookie, whose hash each flow keeps, so that
 * a provider's answer completes a sign-in only in the browser that started it (an attacker cannot
 * sign a victim into the attacker's account with a callback URL or a posted assertion).
 */
const BINDING_COOKIE = "coffre-sso";
const BINDING_MAX_AGE_S = 15 * 60;

export function readBinding(req: Request): string | null {
  const header = req.headers.get("cookie") ?? "";
  for (const part of header.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === BINDING_COOKIE) {
      const value = rest.join("=");
      return /^[\w-]{43}$/.test(value) ? value : null;
    }
  }
  return null;
}

/** Whether this request comes from the browser a flow was bound to (compared in constant time). */
export function isBoundBrowser(req: Request, bindingHash: string | null): boolean {
  const value = readBinding(req);
  if (!value || !bindingHash) return false;
  const a = Buffer.from(hashToken(value));
  const b = Buffer.from(bindingHash);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The browser's binding (reused, so sign-ins in two tabs both finish), and the cookie that keeps it. */
export function browserBinding(req: Request, secure: boolean): { value: string; hash: string; cookie: string } {
  const value = readBinding(req) ?? newToken();
  const cookie = `${BINDING_COOKIE}=${value}; Path=/api/sso/; Max-Age=${BINDING_MAX_AGE_S}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
  return { value, hash: hashToken(value), cookie };
}

/** Only a path of this site: a sign-in must never send a person elsewhere (the one check, http/return-path.ts). */
export const safeNext = (value: unknown): string => safeReturnPath(value);

/** A 303 to another address; Location may be relative (RFC 9110). */
export function redirect(location: string, cookies: string[] = []): Response {
  const headers = new Headers({ Location: location, "Cache-Control": "no-store" });
  for (const cookie of cookies) headers.append("Set-Cookie", cookie);
  return new Response(null, { status: 303, headers });
}
