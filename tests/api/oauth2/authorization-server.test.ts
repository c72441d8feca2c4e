import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as accountRoute from "@/app/api/account/route";
import * as foldersRoute from "@/app/api/folders/route";
import { getDb } from "@/db";
import { oauth2Codes, oauth2Grants, oauth2RefreshTokens, sessions } from "@/db/schema";
import { authenticateToken } from "@/lib/server/auth/authenticate";
import { hashToken } from "@/lib/server/auth/tokens";
import { checkAuthorizationRequest } from "@/lib/server/oauth2/check-authorization-request";
import { purgeExpiredOAuthTokens } from "@/lib/server/oauth2/purge-expired-tokens";
import { createAdmin, createTestUser, type TestUser } from "../../helpers/factories";
import { inRolledBackTransaction, setConfigIn } from "../../helpers/file-ops-factories";
import { call, expectError } from "../../helpers/http";
import { storeOptions } from "../options/fixtures";
import { basic, CALLBACK, consent, createApp, pkcePair, postForm, startAuthorizationServer, webSessionCookie } from "./oauth2-helpers";

// Issue 16, part 2: the authorization server on real HTTP (the handlers server.ts mounts), with
// the bad inputs of the issue answered by RFC 6749 / 7009 errors and nothing issued.

let server: Awaited<ReturnType<typeof startAuthorizationServer>>;
let admin: TestUser;
let user: TestUser;
let cookie: string;

beforeAll(async () => {
  server = await startAuthorizationServer();
  admin = await createAdmin();
  user = await createTestUser();
  cookie = await webSessionCookie(user.id);
});
afterAll(() => server.close());

const token = (fields: Record<string, string>, headers: Record<string, string> = {}) => postForm(`${server.url}/oauth2/token`, fields, headers);
const readAccount = (accessToken: string) => call(accountRoute.GET, { path: "/api/account", token: accessToken });
const listRoots = (accessToken: string) => call(foldersRoute.GET, { path: "/api/folders", token: accessToken });

/** Sessions rows that belong to OAuth2 tokens of `userId`: what "nothing issued" counts. */
async function oauthSessions(userId: number) {
  const [row] = await (await getDb()).select({ n: sql<number>`count(*)::int` }).from(sessions).where(and(eq(sessions.userId, userId), sql`${sessions.scope} is not null`));
  return Number(row.n);
}

async function codeFor(app: { client_id: string }, options: { scope?: string; person?: string; redirect?: string } = {}) {
  const pkce = pkcePair();
  const answer = await consent(server.url, options.person ?? cookie, {
    client_id: app.client_id,
    redirect_uri: options.redirect ?? CALLBACK,
    scope: options.scope ?? "files.read",
    code_challenge: pkce.challenge,
    code_challenge_method: "S256",
    state: "xyz",
  });
  expect(answer.status, answer.text).toBe(200);
  const to = new URL(answer.body.redirect_to);
  expect(to.searchParams.get("state")).toBe("xyz");
  return { code: to.searchParams.get("code")!, ...pkce };
}

const exchange = (app: { client_id: string; client_secret: string }, code: string, verifier: string, redirect = CALLBACK) =>
  token({ grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: redirect }, { authorization: basic(app.client_id, app.client_secret) });

describe("metadata (RFC 8414)", () => {
  it("describes the endpoints, PKCE S256 and the scopes", async () => {
    const res = await fetch(`${server.url}/.well-known/oauth-authorization-server`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      issuer: server.url,
      authorization_endpoint: `${server.url}/oauth2/authorize`,
      token_endpoint: `${server.url}/oauth2/token`,
      revocation_endpoint: `${server.url}/oauth2/revoke`,
      response_types_supported: ["code"],
      code_challenge_methods_supported: ["S256"],
      grant_types_supported: ["authorization_code", "refresh_token", "client_credentials"],
    });
    expect(body.scopes_supported).toContain("files.read");
    expect(body.scopes_supported).toContain("offline");
  });
});

describe("authorization code with PKCE", () => {
  it("issues an expiring access token and a refresh token for the consented scopes", async () => {
    const app = await createApp(admin.token);
    const { code, verifier } = await codeFor(app);
    const res = await exchange(app, code, verifier);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.body).toMatchObject({ token_type: "Bearer", scope: "files.read" });
    expect(res.body.expires_in).toBeGreaterThan(3500);
    expect(res.body.expires_in).toBeLessThanOrEqual(3600);
    expect(typeof res.body.refresh_token).toBe("string");
    expect((await listRoots(res.body.access_token)).status).toBe(200);
    const account = await readAccount(res.body.access_token);
    expectError(account, 403, "insufficient_scope");
    const [row] = await (await getDb()).select().from(sessions).where(eq(sessions.tokenHash, hashToken(res.body.access_token)));
    expect(row).toMatchObject({ userId: user.id, scope: "files.read", kind: "oauth:web" });
    expect(row.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 3500_000);
  });

  it("stops an access token at its expiry", async () => {
    const app = await createApp(admin.token);
    const { code, verifier } = await codeFor(app);
    const res = await exchange(app, code, verifier);
    await (await getDb()).update(sessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(sessions.tokenHash, hashToken(res.body.access_token)));
    expectError(await listRoots(res.body.access_token), 401, "unauthorized");
  });

  it("gives `offline` grants a token without expiry, beyond session_limit", async () => {
    const app = await createApp(admin.token);
    const { code, verifier } = await codeFor(app, { scope: "files.readwrite offline" });
    const res = await exchange(app, code, verifier);
    expect(res.status, res.text).toBe(200);
    expect(res.body.expires_in).toBeUndefined();
    const db = await getDb();
    const [row] = await db.select().from(sessions).where(eq(sessions.tokenHash, hashToken(res.body.access_token)));
    expect(row.expiresAt).toBeNull();
    await db.update(sessions).set({ createdAt: new Date(Date.now() - 400 * 86400_000), lastUsedAt: new Date(Date.now() - 400 * 86400_000) }).where(eq(sessions.id, row.id));
    expect((await listRoots(res.body.access_token)).status).toBe(200);
  });

  it("refuses a reused code and revokes what its first use issued", async () => {
    const app = await createApp(admin.token);
    const { code, verifier } = await codeFor(app);
    const first = await exchange(app, code, verifier);
    expect(first.status).toBe(200);
    const before = await oauthSessions(user.id);
    const again = await exchange(app, code, verifier);
    expect(again.status).toBe(400);
    expect(again.body.error).toBe("invalid_grant");
    expect(again.body.access_token).toBeUndefined();
    expectError(await listRoots(first.body.access_token), 401);
    expect(await oauthSessions(user.id)).toBe(before - 1);
    const refresh = await token({ grant_type: "refresh_token", refresh_token: first.body.refresh_token }, { authorization: basic(app.client_id, app.client_secret) });
    expect(refresh.body.error).toBe("invalid_grant");
  });

  it("refuses wrong codes, a PKCE mismatch, expired codes, another client's code and a changed redirect URI", async () => {
    const app = await createApp(admin.token);
    const other = await createApp(admin.token);
    const before = await oauthSessions(user.id);

    const wrong = await exchange(app, "not-a-code", pkcePair().verifier);
    expect([wrong.status, wrong.body.error]).toEqual([400, "invalid_grant"]);

    const mismatch = await codeFor(app);
    const bad = await exchange(app, mismatch.code, pkcePair().verifier);
    expect([bad.status, bad.body.error]).toEqual([400, "invalid_grant"]);
    // The failed attempt consumed the code: the right verifier comes too late.
    expect((await exchange(app, mismatch.code, mismatch.verifier)).body.error).toBe("invalid_grant");

    const noVerifier = await codeFor(app);
    const missing = await token({ grant_type: "authorization_code", code: noVerifier.code, redirect_uri: CALLBACK }, { authorization: basic(app.client_id, app.client_secret) });
    expect(missing.body.error).toBe("invalid_grant");

    const late = await codeFor(app);
    await (await getDb()).update(oauth2Codes).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(oauth2Codes.codeHash, hashToken(late.code)));
    expect((await exchange(app, late.code, late.verifier)).body.error).toBe("invalid_grant");

    const stolen = await codeFor(app);
    expect((await exchange(other, stolen.code, stolen.verifier)).body.error).toBe("invalid_grant");

    const moved = await codeFor(app);
    const elsewhere = await exchange(app, moved.code, moved.verifier, "https://client.example/other");
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.access_token).toBeUndefined();

    const secretless = await codeFor(app);
    const publicClient = await token({ grant_type: "authorization_code", code: secretless.code, code_verifier: secretless.verifier, redirect_uri: CALLBACK, client_id: app.client_id });
    expect([publicClient.status, publicClient.body.error]).toEqual([400, "invalid_client"]);

    const wrongSecret = await exchange({ client_id: app.client_id, client_secret: "guess" }, (await codeFor(app)).code, "x".repeat(43));
    expect([wrongSecret.status, wrongSecret.body.error]).toEqual([401, "invalid_client"]);
    expect(wrongSecret.headers.get("www-authenticate")).toMatch(/^Basic/);

    expect(await oauthSessions(user.id)).toBe(before);
  });

  it("sends no code without PKCE S256, with a scope beyond the registration, or when the user denies", async () => {
    const app = await createApp(admin.token, { scope: "files.read" });
    const base = { client_id: app.client_id, redirect_uri: CALLBACK, state: "st" };
    const { challenge } = pkcePair();
    const cases: [Record<string, string>, string][] = [
      [{ scope: "files.read" }, "invalid_request"],
      [{ scope: "files.read", code_challenge: challenge, code_challenge_method: "plain" }, "invalid_request"],
      [{ scope: "files.readwrite", code_challenge: challenge, code_challenge_method: "S256" }, "invalid_scope"],
      [{ scope: "files.read offline", code_challenge: challenge, code_challenge_method: "S256" }, "invalid_scope"],
      [{ scope: "teleport", code_challenge: challenge, code_challenge_method: "S256" }, "invalid_scope"],
    ];
    for (const [fields, error] of cases) {
      const res = await consent(server.url, cookie, { ...base, ...fields });
      expect(res.status, res.text).toBe(200);
      const to = new URL(res.body.redirect_to);
      expect(`${to.origin}${to.pathname}`).toBe(CALLBACK);
      expect([to.searchParams.get("error"), to.searchParams.get("code")], JSON.stringify(fields)).toEqual([error, null]);
      expect(to.searchParams.get("state")).toBe("st");
    }
    const denied = await consent(server.url, cookie, { ...base, scope: "files.read", code_challenge: challenge, code_challenge_method: "S256" }, false);
    expect(new URL(denied.body.redirect_to).searchParams.get("error")).toBe("access_denied");
    expect(await (await getDb()).select().from(oauth2Codes).where(eq(oauth2Codes.appId, -1))).toEqual([]);
  });

  it("never redirects to an unregistered URI, and refuses a type 1 application or an unknown client", async () => {
    const app = await createApp(admin.token);
    const machine = await createApp(admin.token, { type: 1, callbacks_uris: [CALLBACK] });
    const { challenge } = pkcePair();
    const fields = { scope: "files.read", code_challenge: challenge, code_challenge_method: "S256" };
    const evil = await consent(server.url, cookie, { ...fields, client_id: app.client_id, redirect_uri: "https://evil.example/cb" });
    expect(evil.status).toBe(400);
    expect(evil.body.error).toBe("invalid_client");
    expect(evil.body.redirect_to).toBeUndefined();
    const plain = await postForm(`${server.url}/oauth2/authorize`, { ...fields, response_type: "code", client_id: app.client_id, redirect_uri: "https://evil.example/cb", allowed: "true" }, { cookie, origin: server.url });
    expect(plain.status).toBe(400);
    expect(plain.headers.get("location")).toBeNull();
    expect((await consent(server.url, cookie, { ...fields, client_id: machine.client_id, redirect_uri: CALLBACK })).body.error).toBe("unauthorized_client");
    expect((await consent(server.url, cookie, { ...fields, client_id: "unknown", redirect_uri: CALLBACK })).body.error).toBe("invalid_client");

    // The consent page applies the same checks before showing anything.
    const db = await getDb();
    expect(await checkAuthorizationRequest(db, { client_id: app.client_id, redirect_uri: "https://evil.example/cb", response_type: "code" })).toEqual({ kind: "invalid", reason: "redirect_uri" });
    expect(await checkAuthorizationRequest(db, { client_id: machine.client_id, response_type: "code" })).toEqual({ kind: "invalid", reason: "not_code_client" });
    const beyond = await checkAuthorizationRequest(db, { client_id: app.client_id, response_type: "code", scope: "admin.read", code_challenge: challenge, code_challenge_method: "S256", state: "a" });
    expect(beyond.kind).toBe("redirect");
    expect(new URL((beyond as { to: string }).to).searchParams.get("error")).toBe("invalid_scope");
    const ok = await checkAuthorizationRequest(db, { client_id: app.client_id, response_type: "code", code_challenge: challenge, code_challenge_method: "S256" });
    expect(ok).toMatchObject({ kind: "consent", scopes: ["files.readwrite", "offline"], app: { name: "Sync tool", editor: "Example Ltd" }, params: { redirect_uri: CALLBACK } });
  });

  it("answers only a signed-in browser of this site", async () => {
    const app = await createApp(admin.token);
    const { challenge } = pkcePair();
    const fields = { response_type: "code", client_id: app.client_id, redirect_uri: CALLBACK, scope: "files.read", code_challenge: challenge, code_challenge_method: "S256", allowed: "true" };
    const anonymous = await postForm(`${server.url}/oauth2/authorize`, fields, { origin: server.url, accept: "application/json" });
    expect([anonymous.status, anonymous.body.error]).toEqual([401, "login_required"]);
    const forged = await postForm(`${server.url}/oauth2/authorize`, fields, { cookie, origin: "https://evil.example", accept: "application/json" });
    expect([forged.status, forged.body.error]).toEqual([403, "access_denied"]);
    // An API token is not a browser session.
    const api = await postForm(`${server.url}/oauth2/authorize`, fields, { authorization: `Bearer ${user.token}`, origin: server.url });
    expect(api.status).toBe(401);
    // Without Accept: application/json, a plain 303 to the client.
    const redirected = await postForm(`${server.url}/oauth2/authorize`, { ...fields, state: "p" }, { cookie, origin: server.url });
    expect(redirected.status).toBe(303);
    expect(new URL(redirected.headers.get("location")!).searchParams.get("code")).toBeTruthy();
  });
});

describe("refresh tokens with rotation", () => {
  it("rotates, ends the previous access token, and revokes the family when an old refresh token comes back", async () => {
    const app = await createApp(admin.token, { scope: "files.readwrite account.read" });
    const { code, verifier } = await codeFor(app, { scope: "files.readwrite account.read" });
    const first = (await exchange(app, code, verifier)).body;
    const auth = { authorization: basic(app.client_id, app.client_secret) };

    const second = await token({ grant_type: "refresh_token", refresh_token: first.refresh_token }, auth);
    expect(second.status, second.text).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    expect(second.body.scope).toBe("files.readwrite account.read");
    expectError(await listRoots(first.access_token), 401);
    expect((await listRoots(second.body.access_token)).status).toBe(200);

    const narrower = await token({ grant_type: "refresh_token", refresh_token: second.body.refresh_token, scope: "files.readwrite" }, auth);
    expect(narrower.body.scope).toBe("files.readwrite");
    expectError(await readAccount(narrower.body.access_token), 403, "insufficient_scope");
    const wider = await token({ grant_type: "refresh_token", refresh_token: narrower.body.refresh_token, scope: "files.readwrite admin.read" }, auth);
    expect(wider.body.error).toBe("invalid_scope");

    // first.refresh_token was rotated away: its reuse ends every token of the grant.
    const reuse = await token({ grant_type: "refresh_token", refresh_token: first.refresh_token }, auth);
    expect([reuse.status, reuse.body.error]).toEqual([400, "invalid_grant"]);
    expectError(await listRoots(narrower.body.access_token), 401);
    expect((await token({ grant_type: "refresh_token", refresh_token: narrower.body.refresh_token }, auth)).body.error).toBe("invalid_grant");
  });

  it("refuses another client's refresh token", async () => {
    const app = await createApp(admin.token);
    const other = await createApp(admin.token);
    const { code, verifier } = await codeFor(app);
    const issued = (await exchange(app, code, verifier)).body;
    const res = await token({ grant_type: "refresh_token", refresh_token: issued.refresh_token }, { authorization: basic(other.client_id, other.client_secret) });
    expect(res.body.error).toBe("invalid_grant");
  });
});

describe("client credentials (type 1)", () => {
  it("acts as the creating administrator within the asked scope", async () => {
    const app = await createApp(admin.token, { type: 1, scope: "files.read account.readwrite", callbacks_uris: [] });
    const res = await token({ grant_type: "client_credentials", scope: "files.read" }, { authorization: basic(app.client_id, app.client_secret) });
    expect(res.status, res.text).toBe(200);
    expect(res.body.refresh_token).toBeUndefined();
    expect(res.body.scope).toBe("files.read");
    expect((await listRoots(res.body.access_token)).status).toBe(200);
    expectError(await readAccount(res.body.access_token), 403, "insufficient_scope");
    // In the body instead of Basic; no scope asked: the registration's.
    const all = await token({ grant_type: "client_credentials", client_id: app.client_id, client_secret: app.client_secret });
    expect(all.body.scope).toBe("files.read account.readwrite");
    const me = await readAccount(all.body.access_token);
    expect(me.body.id).toBe(String(admin.id));
  });

  it("lets a token act as another user (AsId) only with admin.readwrite", async () => {
    const app = await createApp(admin.token, { type: 1, scope: "files.read all", callbacks_uris: [] });
    const narrow = (await token({ grant_type: "client_credentials", scope: "files.read" }, { authorization: basic(app.client_id, app.client_secret) })).body.access_token;
    const wide = (await token({ grant_type: "client_credentials", scope: "all" }, { authorization: basic(app.client_id, app.client_secret) })).body.access_token;
    const asUser = (accessToken: string) => call(foldersRoute.GET, { path: "/api/folders", token: accessToken, headers: { asid: String(user.id) } });
    const refused = await asUser(narrow);
    expectError(refused, 403, "insufficient_scope");
    expect(refused.headers.get("www-authenticate")).toBe('Bearer error="insufficient_scope", scope="admin.readwrite"');
    expect((await call(foldersRoute.GET, { path: "/api/folders", token: narrow, headers: { asid: String(admin.id) } })).status).toBe(200);
    expect((await asUser(wide)).status).toBe(200);
  });

  it("refuses a type 0 application, scopes beyond the registration and bad secrets, issuing nothing", async () => {
    const codeApp = await createApp(admin.token);
    const machine = await createApp(admin.token, { type: 1, scope: "files.read", callbacks_uris: [] });
    const before = await oauthSessions(admin.id);
    const type0 = await token({ grant_type: "client_credentials" }, { authorization: basic(codeApp.client_id, codeApp.client_secret) });
    expect([type0.status, type0.body.error]).toEqual([400, "unauthorized_client"]);
    const beyond = await token({ grant_type: "client_credentials", scope: "files.readwrite" }, { authorization: basic(machine.client_id, machine.client_secret) });
    expect([beyond.status, beyond.body.error]).toEqual([400, "invalid_scope"]);
    const offline = await token({ grant_type: "client_credentials", scope: "files.read offline" }, { authorization: basic(machine.client_id, machine.client_secret) });
    expect(offline.body.error).toBe("invalid_scope");
    const badSecret = await token({ grant_type: "client_credentials" }, { authorization: basic(machine.client_id, `${machine.client_secret}x`) });
    expect([badSecret.status, badSecret.body.error]).toEqual([401, "invalid_client"]);
    const noSecret = await token({ grant_type: "client_credentials", client_id: machine.client_id });
    expect(noSecret.status).toBe(400);
    const password = await token({ grant_type: "password", username: "admin", password: "x" }, { authorization: basic(machine.client_id, machine.client_secret) });
    expect(password.body.error).toBe("unauthorized_client");
    const json = await fetch(`${server.url}/oauth2/token`, { method: "POST", headers: { "content-type": "application/json", authorization: basic(machine.client_id, machine.client_secret) }, body: JSON.stringify({ grant_type: "client_credentials" }) });
    expect(json.status).toBe(400);
    expect((await json.json()).error).toBe("invalid_request");
    const repeated = await fetch(`${server.url}/oauth2/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic(machine.client_id, machine.client_secret) }, body: "grant_type=client_credentials&scope=files.read&scope=all" });
    expect([repeated.status, (await repeated.json()).error]).toEqual([400, "invalid_request"]);
    const huge = await fetch(`${server.url}/oauth2/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic(machine.client_id, machine.client_secret) }, body: `grant_type=client_credentials&pad=${"x".repeat(200_000)}` });
    expect(huge.status).toBe(413);
    const twice = await postForm(`${server.url}/oauth2/token`, { grant_type: "client_credentials" }, { authorization: basic(machine.client_id, machine.client_secret) });
    expect(twice.status).toBe(200);
    expect(await oauthSessions(admin.id)).toBe(before + 1);
  });
});

describe("revocation (RFC 7009)", () => {
  it("ends an access token alone, or a refresh token's whole grant; another client's token stays", async () => {
    const app = await createApp(admin.token);
    const other = await createApp(admin.token);
    const revoke = (fields: Record<string, string>, client = app) => postForm(`${server.url}/oauth2/revoke`, fields, { authorization: basic(client.client_id, client.client_secret) });

    const a = await codeFor(app);
    const issued = (await exchange(app, a.code, a.verifier)).body;
    expect((await revoke({ token: issued.access_token }, other)).status).toBe(200);
    expect((await listRoots(issued.access_token)).status).toBe(200);
    expect((await revoke({ token: issued.access_token, token_type_hint: "access_token" })).status).toBe(200);
    expectError(await listRoots(issued.access_token), 401);
    // The refresh token still works after its access token was revoked alone.
    const refreshed = await postForm(`${server.url}/oauth2/token`, { grant_type: "refresh_token", refresh_token: issued.refresh_token }, { authorization: basic(app.client_id, app.client_secret) });
    expect(refreshed.status).toBe(200);

    expect((await revoke({ token: refreshed.body.refresh_token, token_type_hint: "refresh_token" })).status).toBe(200);
    expectError(await listRoots(refreshed.body.access_token), 401);
    expect((await revoke({ token: "unknown" })).status).toBe(200);

    const unauthenticated = await postForm(`${server.url}/oauth2/revoke`, { token: refreshed.body.access_token });
    expect([unauthenticated.status, unauthenticated.body.error]).toEqual([401, "invalid_client"]);
    expect((await revoke({})).body.error).toBe("invalid_request");
  });
});

describe("connection options and the feature flag", () => {
  it("refuses blocked application kinds at /oauth2/token and on use", async () => {
    const person = await createTestUser();
    const personCookie = await webSessionCookie(person.id);
    const mobile = await createApp(admin.token, { kind: "mobile" });
    const web = await createApp(admin.token, { kind: "web" });
    const first = await codeFor(mobile, { person: personCookie });
    const issued = (await exchange(mobile, first.code, first.verifier)).body;
    expect((await listRoots(issued.access_token)).status).toBe(200);

    await storeOptions(person.id, { oauthBlocked: 2 });
    const refused = await listRoots(issued.access_token);
    expectError(refused, 403, "forbidden");
    expect(refused.body.details).toEqual({ reason: "application_not_allowed" });
    const second = await codeFor(mobile, { person: personCookie });
    const blocked = await exchange(mobile, second.code, second.verifier);
    expect([blocked.status, blocked.body.error]).toEqual([400, "invalid_grant"]);
    expect(blocked.body.access_token).toBeUndefined();
    // A web application is another bit; the user's own API token is never blocked.
    const w = await codeFor(web, { person: personCookie });
    expect((await exchange(web, w.code, w.verifier)).status).toBe(200);
    expect((await listRoots(person.token)).status).toBe(200);

    await storeOptions(person.id, { oauthBlocked: 0 });
    expect((await listRoots(issued.access_token)).status).toBe(200);
  });

  it("refuses an inactive account's tokens at /oauth2/token", async () => {
    const owner = await createAdmin();
    const app = await createApp(owner.token, { type: 1, scope: "files.read", callbacks_uris: [] });
    const { users } = await import("@/db/schema");
    await (await getDb()).update(users).set({ active: false }).where(eq(users.id, owner.id));
    const res = await token({ grant_type: "client_credentials" }, { authorization: basic(app.client_id, app.client_secret) });
    expect([res.status, res.body.error]).toEqual([400, "invalid_grant"]);
  });

  it("switched off, OAuth2 tokens stop working and the consent page shows nothing", async () => {
    const app = await createApp(admin.token, { type: 1, scope: "files.read", callbacks_uris: [] });
    const issued = (await token({ grant_type: "client_credentials" }, { authorization: basic(app.client_id, app.client_secret) })).body;
    await inRolledBackTransaction(async (tx) => {
      await setConfigIn(tx, { features: { oauth2: false } });
      await expect(authenticateToken(tx as never, issued.access_token, "127.0.0.1")).rejects.toMatchObject({ code: "unauthorized" });
      expect((await authenticateToken(tx as never, admin.token, "127.0.0.1")).user.id).toBe(admin.id);
      expect(await checkAuthorizationRequest(tx as never, { client_id: app.client_id })).toEqual({ kind: "invalid", reason: "disabled" });
    });
    expect((await listRoots(issued.access_token)).status).toBe(200);
  });
});

describe("purge (job oauth2.purge)", () => {
  it("removes expired access tokens and refresh tokens, then the grants left with nothing usable", async () => {
    const app = await createApp(admin.token);
    const a = await codeFor(app);
    const ended = (await exchange(app, a.code, a.verifier)).body;
    const b = await codeFor(app);
    const kept = (await exchange(app, b.code, b.verifier)).body;
    const db = await getDb();
    const grantOf = async (accessToken: string) => {
      const [row] = await db.select({ id: oauth2Grants.id }).from(oauth2Grants).innerJoin(oauth2RefreshTokens, eq(oauth2RefreshTokens.grantId, oauth2Grants.id)).innerJoin(sessions, eq(sessions.id, oauth2RefreshTokens.sessionId)).where(eq(sessions.tokenHash, hashToken(accessToken)));
      return row.id;
    };
    const endedGrant = await grantOf(ended.access_token);
    const keptGrant = await grantOf(kept.access_token);
    const past = new Date(Date.now() - 1000);
    await db.update(sessions).set({ expiresAt: past }).where(eq(sessions.tokenHash, hashToken(ended.access_token)));
    await db.update(oauth2RefreshTokens).set({ expiresAt: past }).where(eq(oauth2RefreshTokens.grantId, endedGrant));
    // Only the access token of the kept grant expired: its refresh token still gives access.
    await db.update(sessions).set({ expiresAt: past }).where(eq(sessions.tokenHash, hashToken(kept.access_token)));
    await inRolledBackTransaction(async (tx) => {
      await purgeExpiredOAuthTokens(tx as never);
      const left = await tx.select({ id: oauth2Grants.id }).from(oauth2Grants).where(eq(oauth2Grants.appId, (await tx.select().from(oauth2Grants).where(eq(oauth2Grants.id, keptGrant)))[0].appId));
      expect(left.map((g) => g.id)).toEqual([keptGrant]);
      expect(await tx.select().from(sessions).where(eq(sessions.tokenHash, hashToken(kept.access_token)))).toEqual([]);
      expect(await tx.select().from(oauth2RefreshTokens).where(eq(oauth2RefreshTokens.grantId, keptGrant))).toHaveLength(1);
    });
  });
});
