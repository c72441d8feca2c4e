import "server-only";

// Any origin of ours would do: a path is resolved against it, and anything that leaves it is refused.
const ORIGIN = "http://coffre.invalid";
const MAX_LENGTH = 2048;

/**
 * The one check of every return address a request carries (next-auth's `callbackUrl`, the sign-in
 * page's `next`, the SSO `next` and RelayState): a path of this site or the fallback, never an
 * address elsewhere (issue 25, finding 14). Accepted: a string starting with a single "/", not
 * "//" nor "/\" (browsers read both as a host), with no control character (browsers drop tabs and
 * newlines, so "/\t/evil.example" is "//evil.example"), that resolved against an origin stays on
 * it. The value comes back unchanged, so a redirect says exactly what was checked.
 */
export function safeReturnPath(value: unknown, fallback = "/"): string {
  if (typeof value !== "string" || value.length > MAX_LENGTH) return fallback;
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  if (/[\u0000-\u001f\u007f]/.test(value)) return fallback;
  if (!URL.canParse(value, ORIGIN) || new URL(value, ORIGIN).origin !== ORIGIN) return fallback;
  return value;
}

/**
 * next-auth's `callbacks.redirect`: its own absolute addresses on `baseUrl` become their path; any
 * other value goes through safeReturnPath. Only a path comes back: the origin next-auth derives
 * from a proxied Host header is not trusted for redirects.
 */
export function nextAuthRedirect({ url, baseUrl }: { url: string; baseUrl: string }): string {
  if (!url.startsWith("/") && URL.canParse(url) && URL.canParse(baseUrl)) {
    const target = new URL(url);
    if (target.origin !== new URL(baseUrl).origin) return "/";
    return safeReturnPath(`${target.pathname}${target.search}${target.hash}`);
  }
  return safeReturnPath(url);
}
