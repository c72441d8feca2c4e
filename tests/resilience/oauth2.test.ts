import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as client from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, privateRootOf, signIn, startApp, uploadFile, type AppServer } from "./app-server";

// Issue 16, parts 1 and 2, against the BUILT server (server.ts in front of Next) with a real
// OAuth2 client, openid-client: discovery, client credentials (the "done when": a token
// listing a folder with files.read and refused an upload), the code flow with PKCE as the consent
// page answers it, refresh with rotation, revocation. The consent screen in a browser: e2e/oauth2.spec.ts.

const CALLBACK = "https://client.example/callback";
let app: AppServer;
let dataDir: string;
let admin: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "coffre-res-oauth2-"));
  app = await startApp({ DATA_DIR: dataDir, DATABASE_URL: process.env.DATABASE_URL ?? "" });
  admin = await signIn(app.url);
});
afterAll(async () => {
  await app?.kill("SIGTERM");
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function createApp(body: Record<string, unknown>) {
  const res = await api(app.url, admin, "POST", "/oauth2/app", { name: "Res client", editor: "Tests", callbacks_uris: [], ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { client_id: string; client_secret: string };
}

/** RFC 8414 discovery by openid-client, over plain http on the loopback. */
const discover = (credentials: { client_id: string; client_secret: string }) =>
  client.discovery(new URL(app.url), credentials.client_id, credentials.client_secret, undefined, { execute: [client.allowInsecureRequests], algorithm: "oauth2" });

/** A browser's web session: next-auth's CSRF cookie, then its credentials callback. */
async function webCookie(login = "admin", password = "Adm1n-password") {
  const csrf = await fetch(`${app.url}/api/auth/csrf`);
  const jar = csrf.headers.getSetCookie().map((c) => c.split(";")[0]);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await fetch(`${app.url}/api/auth/callback/credentials`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.join("; ") },
    body: new URLSearchParams({ login, password, csrfToken, json: "true" }),
    redirect: "manual",
  });
  const session = res.headers.getSetCookie().map((c) => c.split(";")[0]).find((c) => c.startsWith("next-auth.session-token="));
  if (!session) throw new Error(`web sign-in failed: ${res.status}`);
  return session;
}

/** The consent page shown, then answered as its Allow button does; returns where the browser goes. */
async function consent(authorizationUrl: URL, cookie: string) {
  const page = await fetch(authorizationUrl, { headers: { cookie }, redirect: "manual" });
  expect(page.status).toBe(200);
  expect(await page.text()).toContain("Res client");
  const res = await fetch(`${app.url}/oauth2/authorize`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json", cookie, origin: app.url },
    body: new URLSearchParams({ ...Object.fromEntries(authorizationUrl.searchParams), allowed: "true" }),
  });
  expect(res.status).toBe(200);
  return new URL(((await res.json()) as { redirect_to: string }).redirect_to);
}

describe("OAuth2 with openid-client against the built server", () => {
  it("discovers the authorization server (RFC 8414)", async () => {
    const creds = await createApp({ type: 1, scope: "files.read" });
    const config = await discover(creds);
    const meta = config.serverMetadata();
    expect(meta.issuer).toBe(app.url);
    expect(meta.token_endpoint).toBe(`${app.url}/oauth2/token`);
    expect(meta.revocation_endpoint).toBe(`${app.url}/oauth2/revoke`);
    expect(meta.code_challenge_methods_supported).toEqual(["S256"]);
  });

  it("client credentials with files.read list a folder and are refused an upload (issue 16, done when)", async () => {
    const creds = await createApp({ type: 1, scope: "files.read" });
    const config = await discover(creds);
    const tokens = await client.clientCredentialsGrant(config, { scope: "files.read" });
    expect(tokens.token_type.toLowerCase()).toBe("bearer");
    expect(tokens.scope).toBe("files.read");
    expect(tokens.expires_in).toBeGreaterThan(3500);
    expect(tokens.refresh_token).toBeUndefined();

    const root = await privateRootOf(app.url, admin);
    await uploadFile(app.url, admin, root, "oauth-visible.txt", new TextEncoder().encode("seen through OAuth2"));
    const listing = await api(app.url, tokens.access_token, "GET", `/folder/${root}?depth=1`);
    expect(listing.status).toBe(200);
    expect(listing.body.content.files.map((f: { name: string }) => f.name)).toContain("oauth-visible.txt");

    const upload = await fetch(`${app.url}/api/file/upload`, {
      method: "POST",
      headers: { authorization: `Bearer ${tokens.access_token}` },
      body: (() => {
        const form = new FormData();
        form.set("folderId", String(root));
        form.set("targetFile", new Blob(["refused"]), "refused.txt");
        return form;
      })(),
    });
    expect(upload.status).toBe(403);
    expect(upload.headers.get("www-authenticate")).toBe('Bearer error="insufficient_scope", scope="files.readwrite"');
    expect(((await upload.json()) as { code: string }).code).toBe("insufficient_scope");
    const after = await api(app.url, admin, "GET", `/folder/${root}?depth=1`);
    expect(after.body.content.files.map((f: { name: string }) => f.name)).not.toContain("refused.txt");
    console.log(`[oauth2] client credentials token (files.read): GET /api/folder/${root} -> ${listing.status}, POST /api/file/upload -> ${upload.status} ${upload.headers.get("www-authenticate")}`);
  });

  it("refuses client credentials to a type 0 application and scopes beyond the registration", async () => {
    const codeApp = await createApp({ type: 0, scope: "files.read", callbacks_uris: [CALLBACK] });
    const machine = await createApp({ type: 1, scope: "files.read" });
    await expect(client.clientCredentialsGrant(await discover(codeApp))).rejects.toMatchObject({ error: "unauthorized_client" });
    await expect(client.clientCredentialsGrant(await discover(machine), { scope: "files.readwrite" })).rejects.toMatchObject({ error: "invalid_scope" });
    await expect(client.clientCredentialsGrant(await discover({ ...machine, client_secret: "wrong" }))).rejects.toMatchObject({ error: "invalid_client" });
  });

  it("runs the PKCE code flow, rotates refresh tokens, revokes the family on reuse, and revokes by RFC 7009", async () => {
    const creds = await createApp({ type: 0, scope: "files.readwrite", callbacks_uris: [CALLBACK] });
    const config = await discover(creds);
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, { redirect_uri: CALLBACK, scope: "files.readwrite", code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256", state });
    const cookie = await webCookie();
    const back = await consent(url, cookie);
    expect(`${back.origin}${back.pathname}`).toBe(CALLBACK);

    // A wrong verifier first: the code is consumed and nothing is issued.
    await expect(client.authorizationCodeGrant(config, back, { pkceCodeVerifier: client.randomPKCECodeVerifier(), expectedState: state })).rejects.toMatchObject({ error: "invalid_grant" });
    const again = await consent(url, cookie);
    const tokens = await client.authorizationCodeGrant(config, again, { pkceCodeVerifier: verifier, expectedState: state });
    expect(tokens.scope).toBe("files.readwrite");
    await expect(client.authorizationCodeGrant(config, again, { pkceCodeVerifier: verifier, expectedState: state })).rejects.toMatchObject({ error: "invalid_grant" });
    // The reused code revoked what its first use issued.
    expect((await api(app.url, tokens.access_token, "GET", "/folders")).status).toBe(401);

    const third = await consent(url, cookie);
    const fresh = await client.authorizationCodeGrant(config, third, { pkceCodeVerifier: verifier, expectedState: state });
    expect((await api(app.url, fresh.access_token, "GET", "/folders")).status).toBe(200);
    const rotated = await client.refreshTokenGrant(config, fresh.refresh_token!);
    expect(rotated.refresh_token).not.toBe(fresh.refresh_token);
    expect((await api(app.url, fresh.access_token, "GET", "/folders")).status).toBe(401);
    expect((await api(app.url, rotated.access_token, "GET", "/folders")).status).toBe(200);
    const rotatedAgain = await client.refreshTokenGrant(config, rotated.refresh_token!);
    await expect(client.refreshTokenGrant(config, fresh.refresh_token!)).rejects.toMatchObject({ error: "invalid_grant" });
    expect((await api(app.url, rotatedAgain.access_token, "GET", "/folders")).status).toBe(401);

    const fourth = await consent(url, cookie);
    const last = await client.authorizationCodeGrant(config, fourth, { pkceCodeVerifier: verifier, expectedState: state });
    await client.tokenRevocation(config, last.access_token, { token_type_hint: "access_token" });
    expect((await api(app.url, last.access_token, "GET", "/folders")).status).toBe(401);
    await client.tokenRevocation(config, last.refresh_token!);
    await expect(client.refreshTokenGrant(config, last.refresh_token!)).rejects.toMatchObject({ error: "invalid_grant" });
  });

  it("stops the tokens of a reset application at once", async () => {
    const creds = await createApp({ type: 1, scope: "files.read" });
    const tokens = await client.clientCredentialsGrant(await discover(creds));
    expect((await api(app.url, tokens.access_token, "GET", "/folders")).status).toBe(200);
    const reset = await api(app.url, admin, "POST", `/oauth2/app/${creds.client_id}/reset`);
    expect(reset.status).toBe(200);
    expect((await api(app.url, tokens.access_token, "GET", "/folders")).status).toBe(401);
    await expect(client.clientCredentialsGrant(await discover(creds))).rejects.toMatchObject({ error: "invalid_client" });
    const renewed = await client.clientCredentialsGrant(await discover({ client_id: creds.client_id, client_secret: reset.body.client_secret }));
    expect((await api(app.url, renewed.access_token, "GET", "/folders")).status).toBe(200);
  });

  it("answers nothing while the oauth2 feature is off", async () => {
    const creds = await createApp({ type: 1, scope: "files.read" });
    const tokens = await client.clientCredentialsGrant(await discover(creds));
    expect((await api(app.url, admin, "PUT", "/config", { features: { oauth2: false } })).status).toBe(200);
    try {
      // The configuration is cached for 2 s per process.
      await new Promise((r) => setTimeout(r, 2100));
      expect((await fetch(`${app.url}/.well-known/oauth-authorization-server`)).status).toBe(404);
      const token = await fetch(`${app.url}/oauth2/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "grant_type=client_credentials" });
      expect(token.status).toBe(404);
      expect((await api(app.url, tokens.access_token, "GET", "/folders")).status).toBe(401);
    } finally {
      expect((await api(app.url, admin, "PUT", "/config", { features: { oauth2: true } })).status).toBe(200);
    }
    expect(app.output()).not.toMatch(/uncaughtException|unhandledRejection/);
  });
});
