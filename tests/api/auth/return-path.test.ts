import http from "node:http";
import type { AddressInfo } from "node:net";
import NextAuth from "next-auth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAuthOptions } from "@/lib/server/auth/next-auth-options";

// Issue 25, finding 14: next-auth's sign-out page took `callbackUrl=/\evil.example/` and sent the
// browser there. The App Router handler needs Next's request context (next/headers); next-auth's
// pages-API entry runs the same core, so it is served here over real HTTP, the way Next's pages
// API would call it (query with `nextauth`, parsed cookies and form body).
// vitest sets BASE_URL to "/" (environment.md, trap 8); this file's worker runs as a server started without it.
delete process.env.BASE_URL;
const EVIL = "/\\evil.example/";

let server: http.Server;
let base = "";
beforeAll(async () => {
  const options = await getAuthOptions();
  server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const api = Object.assign(req, {
      query: { ...Object.fromEntries(url.searchParams), nextauth: url.pathname.split("/").slice(3) },
      cookies: Object.fromEntries((req.headers.cookie ?? "").split(/;\s*/).filter(Boolean).map((c) => [c.slice(0, c.indexOf("=")), decodeURIComponent(c.slice(c.indexOf("=") + 1))])),
      body: Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString())),
    });
    const reply = Object.assign(res, {
      status: (code: number) => ((res.statusCode = code), reply),
      send: (body: unknown) => res.end(typeof body === "string" ? body : JSON.stringify(body)),
      json: (body: unknown) => res.setHeader("Content-Type", "application/json").end(JSON.stringify(body)),
    });
    await NextAuth(api as never, reply as never, options);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The cookies an answer sets, by name without next-auth's __Secure- and __Host- prefixes. */
const cookiesOf = (res: Response): Record<string, string> =>
  Object.fromEntries(res.headers.getSetCookie().map((c) => c.split(";")[0].split("=")).map(([k, ...v]) => [k.replace(/^__(Secure|Host)-/, ""), decodeURIComponent(v.join("="))]));
const csrfCookieName = (res: Response) => res.headers.getSetCookie().map((c) => c.split("=")[0]).find((name) => name.endsWith("next-auth.csrf-token"))!;
const callbackCookieName = (res: Response) => res.headers.getSetCookie().map((c) => c.split("=")[0]).find((name) => name.endsWith("next-auth.callback-url")) ?? "next-auth.callback-url";

describe("next-auth's return addresses", () => {
  it("the sign-out page keeps no address elsewhere, in its form or its cookie", async () => {
    for (const target of [EVIL, "/\t/evil.example", "https://evil.example/"]) {
      const page = await fetch(`${base}/api/auth/signout?callbackUrl=${encodeURIComponent(target)}`);
      expect(page.status).toBe(200);
      expect(await page.text()).not.toContain("evil.example");
      expect(cookiesOf(page)["next-auth.callback-url"]).toBe("/");
    }
  });

  it("signing out sends the browser to a path of this site only", async () => {
    const csrf = await fetch(`${base}/api/auth/csrf`);
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const cookie = `${csrfCookieName(csrf)}=${encodeURIComponent(cookiesOf(csrf)["next-auth.csrf-token"])}`;
    const signOut = (callbackUrl: string) =>
      fetch(`${base}/api/auth/signout`, { method: "POST", redirect: "manual", headers: { cookie, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ csrfToken, callbackUrl }) });
    const refused = await signOut(EVIL);
    expect(refused.status).toBe(302);
    expect(refused.headers.get("location")).toBe("/");
    const kept = await signOut("/files/12");
    expect(kept.headers.get("location")).toBe("/files/12");
  });

  it("a callback-url cookie pointing elsewhere is refused as well", async () => {
    const name = callbackCookieName(await fetch(`${base}/api/auth/signout?callbackUrl=%2F`));
    const page = await fetch(`${base}/api/auth/signout`, { headers: { cookie: `${name}=${encodeURIComponent(EVIL)}` } });
    expect(await page.text()).not.toContain("evil.example");
    expect(cookiesOf(page)["next-auth.callback-url"]).toBe("/");
  });
});
