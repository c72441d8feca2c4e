import { timingSafeEqual } from "node:crypto";
import { getAuthOptions } from "../auth/next-auth-options";
import { hashToken, newToken } from "../auth/tokens";
import { appUrl } from "../mail/app-url";

// What the SSO routes share: the addresses given to providers, the browser-binding cookie, and
// the redirects a browser follows. Only BASE_URL makes these addresses stable (entity ID, redirect
// URI); without it they follow the address the request came to, as next-auth and mail links do.

/** The addresses of one provider's flows; the SAML entity ID is its metadata address. */
export function ssoUrls(req: Request, providerId: number) {
  const base = `${appUrl(req)}/api/sso/${providerId}`;
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

/** Only a path of this site: a sign-in must never send a person elsewhere (as app/login/page.tsx). */
export const safeNext = (value: unknown): string => (typeof value === "string" && /^\/(?![/\\])[^\u0000-\u001f]*$/.test(value) && value.length <= 2048 ? value : "/");

/** A 303 to another address; Location may be relative (RFC 9110). */
export function redirect(location: string, cookies: string[] = []): Response {
  const headers = new Headers({ Location: location, "Cache-Control": "no-store" });
  for (const cookie of cookies) headers.append("Set-Cookie", cookie);
  return new Response(null, { status: 303, headers });
}
