import { NextResponse, type NextRequest } from "next/server";
import { createNonce, pageSecurityHeaders } from "@/lib/server/http/security-headers";

/**
 * Pages only: a fresh CSP nonce per page request and the pages' security headers. Next reads the
 * nonce from the request's Content-Security-Policy header and puts it on its own scripts and
 * styles while rendering (so every page renders dynamically, which ours already do: the root
 * layout reads the session cookie).
 */
export function proxy(request: NextRequest) {
  const headers = pageSecurityHeaders({
    pathname: request.nextUrl.pathname,
    nonce: createNonce(),
    baseUrl: process.env.BASE_URL,
    dev: process.env.NODE_ENV === "development",
  });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("Content-Security-Policy", headers["Content-Security-Policy"]);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

/**
 * Never the API nor static files: Proxy cuts the body of every request it matches at 10 MB
 * (environment.md, trap 3), and uploads, chunks, tus and deposits all live under /api. Also left
 * out: Next's own files, the pdf.js worker (/assets), the icon, WebDAV and .well-known, which are
 * not pages. Prefetches carry no document, so they need no nonce.
 */
export const config = {
  matcher: [
    {
      source: "/((?!api(?:/|$)|_next/|assets/|dav(?:/|$)|\\.well-known/|icon\\.svg|favicon\\.ico|robots\\.txt).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
