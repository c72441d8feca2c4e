/**
 * The security headers of the web screens and of the API, built in one place so proxy.ts (pages,
 * per request) and next.config.ts (static headers, fixed at build time) agree. Pure: no
 * `process.env` here, the callers pass what they read, so every branch is a plain unit test.
 *
 * This module is imported by next.config.ts, which Node loads as it is: keep it free of imports
 * (not even "server-only", which only bundlers resolve).
 */

export type PageHeaderOptions = {
  /** The request's path, which decides the referrer policy. */
  pathname: string;
  /** A fresh random value per request (base64); Next.js puts it on its own scripts and styles. */
  nonce: string;
  /** `BASE_URL` as configured; an https address turns on HSTS and upgrade-insecure-requests. */
  baseUrl?: string | null;
  /** `next dev` needs eval (React's error overlay) and injects unnonced styles. */
  dev?: boolean;
};

/**
 * Public link pages carry their secret in the URL (/s/<key>, /d/<key>, /invite/<key>,
 * /reset-password/<token>): no referrer at all leaves them, not even the origin-only one.
 */
const SECRET_URL_PREFIXES = ["/s/", "/d/", "/invite/", "/reset-password", "/sign/", "/workflow/"];

export const PAGE_REFERRER_POLICY = "strict-origin-when-cross-origin";
export const SECRET_PAGE_REFERRER_POLICY = "no-referrer";

/** One year; no includeSubDomains nor preload: the deployer's other hosts are not ours to pin. */
export const HSTS_VALUE = "max-age=31536000";

/** Powerful features none of our screens use; everything else keeps the browser's default. */
export const PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()";

export function isHttpsBaseUrl(baseUrl: string | null | undefined): boolean {
  if (!baseUrl) return false;
  try {
    return new URL(baseUrl).protocol === "https:";
  } catch {
    return false;
  }
}

export function referrerPolicyFor(pathname: string): string {
  return SECRET_URL_PREFIXES.some((prefix) => pathname === prefix.replace(/\/$/, "") || pathname.startsWith(prefix)) ? SECRET_PAGE_REFERRER_POLICY : PAGE_REFERRER_POLICY;
}

/**
 * The pages' Content-Security-Policy. Why each source is there:
 * - script-src: only Next's nonce'd scripts and what they load ('strict-dynamic'); 'self' is the
 *   fallback of browsers without 'strict-dynamic' and is ignored by the others. No 'unsafe-inline'.
 * - style-src: our stylesheets and Next's nonce'd <style>; style-src-attr 'unsafe-inline' because
 *   React renders `style={{...}}` (row offsets, progress widths, avatar sizes) as attributes in the
 *   server HTML. Attributes cannot run script; <style> elements stay nonce-only.
 * - img-src data: blob:: thumbnails and avatars are object URLs, pdf.js paints into data: images.
 * - media-src blob:: players may be given object URLs.
 * - worker-src 'self': pdf.js's module worker is served from /assets/pdf-worker.
 * - frame-src 'self': the preview page /api/preview/(id) in the public share page.
 * - frame-ancestors 'none': no page of ours is meant to be framed (clickjacking).
 */
export function pageContentSecurityPolicy(options: Omit<PageHeaderOptions, "pathname">): string {
  const { nonce, dev = false } = options;
  const directives = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    // In development Next injects <style> elements without a nonce (and a nonce would void 'unsafe-inline').
    dev ? "style-src 'self' 'unsafe-inline'" : `style-src 'self' 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    `img-src 'self' data: blob:`,
    `media-src 'self' blob:`,
    "font-src 'self'",
    `connect-src 'self'`,
    "worker-src 'self'",
    `frame-src 'self'`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ];
  if (isHttpsBaseUrl(options.baseUrl)) directives.push("upgrade-insecure-requests");
  return directives.join("; ");
}

/** Every header a page response carries (set by proxy.ts on each page request). */
export function pageSecurityHeaders(options: PageHeaderOptions): Record<string, string> {
  const headers: Record<string, string> = {
    "Content-Security-Policy": pageContentSecurityPolicy(options),
    "Referrer-Policy": referrerPolicyFor(options.pathname),
    "X-Content-Type-Options": "nosniff",
    // Ignored by browsers that honour frame-ancestors; kept for those that do not.
    "X-Frame-Options": "DENY",
    "Permissions-Policy": PERMISSIONS_POLICY,
    // Our pages open no window that needs a handle back to them, nor are opened by one.
    "Cross-Origin-Opener-Policy": "same-origin",
  };
  if (isHttpsBaseUrl(options.baseUrl)) headers["Strict-Transport-Security"] = HSTS_VALUE;
  return headers;
}

/** A nonce for one response: 128 random bits, base64 (a CSP nonce-source). Web Crypto, so it runs wherever proxy.ts does. */
export function createNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

type HeaderRule = { source: string; headers: { key: string; value: string }[] };

/**
 * The static headers of next.config.ts `headers()`, resolved at build time, so they depend on
 * nothing configured at run time. Next writes these before a route runs, and a route's own value
 * of the same header is then dropped: so no rule here sets a header a route sets itself (the
 * preview routes own their Content-Security-Policy, framing and referrer policy).
 * - nosniff everywhere, static files included (the same value every route uses);
 * - X-Frame-Options: DENY on the API, except /api/preview/**, which our own pages frame
 *   (the preview page sets `frame-ancestors 'self'` itself).
 */
export function staticSecurityHeaderRules(): HeaderRule[] {
  return [
    { source: "/:path*", headers: [{ key: "X-Content-Type-Options", value: "nosniff" }] },
    { source: "/api", headers: [{ key: "X-Frame-Options", value: "DENY" }] },
    { source: "/api/:path((?!preview(?:/|$)).*)", headers: [{ key: "X-Frame-Options", value: "DENY" }] },
  ];
}

/**
 * The static /api rules above, for the answers server.ts gives on the raw request (issue 26),
 * which never pass through next.config.ts.
 */
export function apiSecurityHeaders(pathname: string): Record<string, string> {
  const framed = pathname === "/api/preview" || pathname.startsWith("/api/preview/");
  return framed ? { "X-Content-Type-Options": "nosniff" } : { "X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY" };
}
