import { describe, expect, it } from "vitest";
import { config } from "@/proxy";
import { createNonce, HSTS_VALUE, pageContentSecurityPolicy, pageSecurityHeaders, referrerPolicyFor, staticSecurityHeaderRules } from "@/lib/server/http/security-headers";

const nonce = "AAAAAAAAAAAAAAAAAAAAAA==";
const directive = (csp: string, name: string) =>
  csp
    .split("; ")
    .find((d) => d.split(" ")[0] === name)
    ?.split(" ")
    .slice(1);

describe("page security headers", () => {
  it("allow scripts by nonce only, never inline or eval in production", () => {
    const csp = pageContentSecurityPolicy({ nonce });
    expect(directive(csp, "script-src")).toEqual(["'self'", `'nonce-${nonce}'`, "'strict-dynamic'"]);
    expect(directive(csp, "style-src")).toEqual(["'self'", `'nonce-${nonce}'`]);
    expect(directive(csp, "frame-ancestors")).toEqual(["'none'"]);
    expect(directive(csp, "object-src")).toEqual(["'none'"]);
    expect(directive(csp, "worker-src")).toEqual(["'self'"]);
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(csp).not.toContain("unsafe-eval");
  });

  it("add eval and unnonced styles in development only", () => {
    const csp = pageContentSecurityPolicy({ nonce, dev: true });
    expect(directive(csp, "script-src")).toContain("'unsafe-eval'");
    expect(directive(csp, "script-src")).not.toContain("'unsafe-inline'");
    expect(directive(csp, "style-src")).toEqual(["'self'", "'unsafe-inline'"]);
  });

  it("send HSTS and upgrade requests only when BASE_URL is https", () => {
    const https = pageSecurityHeaders({ pathname: "/", nonce, baseUrl: "https://files.example.org" });
    expect(https["Strict-Transport-Security"]).toBe(HSTS_VALUE);
    expect(HSTS_VALUE).toBe("max-age=31536000");
    expect(https["Content-Security-Policy"]).toContain("upgrade-insecure-requests");
    for (const baseUrl of [undefined, null, "", "/", "http://files.example.org", "not a url", "HTTPS"]) {
      const plain = pageSecurityHeaders({ pathname: "/", nonce, baseUrl });
      expect(plain["Strict-Transport-Security"], String(baseUrl)).toBeUndefined();
      expect(plain["Content-Security-Policy"]).not.toContain("upgrade-insecure-requests");
    }
  });

  it("send no referrer from pages whose URL carries a secret", () => {
    for (const path of ["/s/abc", "/d/abc", "/invite/abc", "/reset-password/token", "/reset-password", "/sign/1.abc.def", "/workflow/1.abc"]) expect(referrerPolicyFor(path), path).toBe("no-referrer");
    for (const path of ["/", "/files/12", "/login", "/login/forgot-password", "/links", "/settings/s/x", "/sx"]) expect(referrerPolicyFor(path), path).toBe("strict-origin-when-cross-origin");
  });

  it("carry nosniff, a refusal of framing and a minimal permissions policy", () => {
    const headers = pageSecurityHeaders({ pathname: "/files", nonce });
    expect(headers["X-Content-Type-Options"]).toBe("nosniff");
    expect(headers["X-Frame-Options"]).toBe("DENY");
    expect(headers["Permissions-Policy"]).toBe("camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()");
  });

  it("make a fresh 128-bit nonce each time", () => {
    const nonces = new Set(Array.from({ length: 100 }, createNonce));
    expect(nonces.size).toBe(100);
    for (const value of nonces) expect(value).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });
});

describe("proxy.ts matcher", () => {
  // The matcher's source is a regular expression already (no named parameters): anchored, it is what Next compiles.
  const source = (config.matcher[0] as { source: string }).source;
  const matches = (path: string) => new RegExp(`^${source}$`).test(path);

  it("runs on every page", () => {
    for (const path of ["/", "/files", "/files/12", "/recent", "/trash", "/links", "/account", "/login", "/login/forgot-password", "/s/key", "/d/key", "/invite/key", "/reset-password/token", "/apidocs", "/no-such-page"]) {
      expect(matches(path), path).toBe(true);
    }
  });

  it("never runs on the API (it would cut bodies at 10 MB) nor on static files", () => {
    const skipped = ["/api", "/api/file/upload", "/api/file/12/upload", "/api/file/tus", "/api/tus/abc", "/api/ulink/key/k/upload", "/api/user/3/picture", "/api/account/picture", "/api/file/12/download", "/_next/static/chunks/a.js", "/_next/image", "/assets/pdf-worker", "/icon.svg", "/favicon.ico", "/dav/x", "/.well-known/openid-configuration"];
    for (const path of skipped) expect(matches(path), path).toBe(false);
  });
});

describe("next.config.ts static headers", () => {
  const rules = staticSecurityHeaderRules();
  // The same compilation Next applies to a `source` with one `:path(...)` parameter.
  const toRegExp = (source: string) => new RegExp(`^${source.replace("/:path*", "(?:/.*)?").replace(/:path(\(.*\))$/, "$1")}/?$`);
  const headersFor = (path: string) => Object.fromEntries(rules.filter((rule) => toRegExp(rule.source).test(path)).flatMap((rule) => rule.headers.map((h) => [h.key, h.value])));

  it("refuse framing of the API, except the preview routes our pages frame", () => {
    expect(headersFor("/api/health")["X-Frame-Options"]).toBe("DENY");
    expect(headersFor("/api")["X-Frame-Options"]).toBe("DENY");
    expect(headersFor("/api/file/3/download")["X-Frame-Options"]).toBe("DENY");
    expect(headersFor("/api/previews")["X-Frame-Options"]).toBe("DENY");
    expect(headersFor("/api/preview/3")["X-Frame-Options"]).toBeUndefined();
    expect(headersFor("/api/preview/3/content")["X-Frame-Options"]).toBeUndefined();
  });

  it("set nosniff everywhere and never a header the routes set themselves", () => {
    for (const path of ["/", "/api/health", "/api/preview/3", "/_next/static/x.js"]) expect(headersFor(path)["X-Content-Type-Options"], path).toBe("nosniff");
    const keys = rules.flatMap((rule) => rule.headers.map((h) => h.key));
    expect(keys).not.toContain("Content-Security-Policy");
    expect(keys).not.toContain("Referrer-Policy");
  });
});
