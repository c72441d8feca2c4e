import { createHash, randomBytes } from "node:crypto";
import { encode } from "next-auth/jwt";
import * as appRoute from "@/app/api/oauth2/app/route";
import { getDb } from "@/db";
import { sessions } from "@/db/schema";
import { getAuthSecret } from "@/lib/server/auth/secret";
import { hashToken, newToken } from "@/lib/server/auth/tokens";
import { OAUTH2_ENDPOINTS } from "@/lib/server/oauth2/oauth2-endpoints";
import { call } from "../../helpers/http";
import { serveNode } from "../../helpers/node-server";

export const CALLBACK = "https://client.example/callback";

/** POST /api/oauth2/app as `adminToken`; the body of api.md with defaults. */
export async function createApp(adminToken: string, body: Record<string, unknown> = {}) {
  const res = await call(appRoute.POST, {
    method: "POST",
    path: "/api/oauth2/app",
    token: adminToken,
    body: { name: "Sync tool", editor: "Example Ltd", editor_url: "https://example.com", type: 0, scope: "files.readwrite offline", callbacks_uris: [CALLBACK], ...body },
  });
  if (res.status !== 201) throw new Error(`create app: ${res.status} ${res.text}`);
  return res.body as { client_id: string; client_secret: string; [k: string]: unknown };
}

/** The authorization server's endpoints on a real local HTTP server, routed as server.ts does. */
export async function startAuthorizationServer() {
  return serveNode(async (req, res) => {
    const pathname = (req.url ?? "/").split("?")[0];
    const endpoint = OAUTH2_ENDPOINTS.find((e) => e.methods.includes(req.method ?? "GET") && e.pattern.test(pathname));
    if (!endpoint) {
      res.writeHead(404).end();
      return;
    }
    await endpoint.handler(req, res, {});
  });
}

export const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`;

/** POST a form to the authorization server. */
export async function postForm(url: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams(fields), redirect: "manual" });
  const text = await res.text();
  let body: any;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {}
  return { status: res.status, body, text, headers: res.headers };
}

/** A signed-in browser: a web session row and the next-auth cookie carrying it. */
export async function webSessionCookie(userId: number) {
  const raw = newToken();
  await (await getDb()).insert(sessions).values({ tokenHash: hashToken(raw), userId, kind: "web" });
  return `next-auth.session-token=${await encode({ token: { sessionToken: raw }, secret: await getAuthSecret() })}`;
}

export function pkcePair() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** The consent answer of a signed-in user, as the consent page posts it; returns the redirect. */
export async function consent(server: string, cookie: string, fields: Record<string, string>, allowed = true) {
  const origin = new URL(server).origin;
  return postForm(`${server}/oauth2/authorize`, { response_type: "code", ...fields, allowed: String(allowed) }, { cookie, origin, accept: "application/json" });
}
