import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as loginRoute from "@/app/api/sso/[providerId]/login/route";
import { getDb } from "@/db";
import { connectionOptions, identityLinks, sessions, ssoFlows, users } from "@/db/schema";
import { MATCHING } from "@/lib/contracts/identity-providers";
import { hashToken } from "@/lib/server/auth/tokens";
import { createTestUser, reloadUser, unique } from "../../../helpers/factories";
import { startOidcProvider, type OidcTestProvider } from "../../../helpers/oidc-provider";
import { APP, TestBrowser } from "./browser";
import { appStep, createSsoProvider, expectRefused, lastLogFor, linkOf, sessionUserOf, signInThrough, urlsOf } from "./helpers";

// OpenID Connect sign-in against a real provider (oidc-provider, in process): authorization code
// with PKCE, state, nonce, provisioning and matching, and what must be refused.

let op: OidcTestProvider;
const SECRET = "a-client-secret-for-the-tests-0123456789";

async function oidcProvider(options: { provisioning?: boolean; matching?: number; enable?: boolean } = {}) {
  const clientId = unique("coffre-");
  const row = await createSsoProvider({ type: "oidc", discovery: op.issuer, client_id: clientId, client_secret: SECRET, ...options });
  op.addClient({ client_id: clientId, client_secret: SECRET, redirect_uris: [urlsOf(row.id).callback] });
  return row;
}

function account(overrides: Partial<Parameters<OidcTestProvider["setAccount"]>[0]> = {}) {
  const login = unique("oidc_");
  const acc = { login, email: `${login}@idp.example`, email_verified: true, given_name: "Grace", family_name: "Hopper", preferred_username: login, ...overrides };
  op.setAccount(acc);
  return acc;
}

beforeAll(async () => {
  op = await startOidcProvider();
});
afterAll(async () => {
  await op?.stop();
});

describe("OpenID Connect sign-in", () => {
  it("provisions a new account just in time and opens a web session", async () => {
    const provider = await oidcProvider();
    const person = account();
    const browser = new TestBrowser();

    const start = await appStep(browser, { kind: "get", url: `${urlsOf(provider.id).login}?next=/files/42` });
    expect(start.status).toBe(303);
    const authorize = new URL(start.location);
    expect(authorize.origin).toBe(op.issuer);
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorize.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(authorize.searchParams.get("state")).toMatch(/^[\w-]{20,}$/);
    expect(authorize.searchParams.get("nonce")).toMatch(/^[\w-]{20,}$/);
    expect(authorize.searchParams.get("redirect_uri")).toBe(urlsOf(provider.id).callback);
    expect(authorize.searchParams.get("scope")).toBe("openid email profile");

    const back = await browser.atProvider(authorize.href, { login: person.login, password: "any" });
    expect(back.url.startsWith(`${urlsOf(provider.id).callback}?`)).toBe(true);
    const done = await appStep(browser, back);
    expect(done.status).toBe(303);
    expect(done.location).toBe("/files/42");

    const signedIn = await sessionUserOf(browser);
    expect(signedIn?.user).toMatchObject({ login: person.login, email: person.email, firstname: "Grace", lastname: "Hopper", role: 2, active: true, passwordHash: null });
    expect(signedIn?.user.privateRootId).not.toBeNull();
    expect(signedIn?.session).toMatchObject({ kind: "web", userAgent: "vitest-browser", ip: "10.9.8.7" });
    expect(await linkOf(provider.id, person.login)).toMatchObject({ kind: "user", userId: signedIn!.user.id });
    expect((await lastLogFor("user", signedIn!.user.id))?.message).toBe(`Signed in (web) with ${provider.name} (oidc)`);
    // The flow was spent.
    const db = await getDb();
    expect(await db.select().from(ssoFlows).where(eq(ssoFlows.providerId, provider.id))).toHaveLength(0);
  });

  it("signs the same account in again, following its name at the provider", async () => {
    const provider = await oidcProvider();
    const person = account();
    await signInThrough(new TestBrowser(), provider.id, { login: person.login });
    op.setAccount({ ...person, given_name: "Amazing", family_name: "Grace" });
    const browser = new TestBrowser();
    const again = await signInThrough(browser, provider.id, { login: person.login });
    expect(again.location).toBe("/files");
    const db = await getDb();
    const accounts = await db.select().from(users).where(eq(users.login, person.login));
    expect(accounts).toHaveLength(1);
    expect(accounts[0]).toMatchObject({ firstname: "Amazing", lastname: "Grace" });
    expect((await sessionUserOf(browser))?.user.id).toBe(accounts[0].id);
  });

  it("matches an existing account by email (matching 1) and links it", async () => {
    const provider = await oidcProvider({ matching: MATCHING.email });
    const local = await createTestUser({ email: `${unique("m")}@corp.example` });
    const person = account({ email: local.email.toUpperCase(), preferred_username: unique("other") });
    const browser = new TestBrowser();
    await signInThrough(browser, provider.id, { login: person.login });
    expect((await sessionUserOf(browser))?.user.id).toBe(local.id);
    expect(await linkOf(provider.id, person.login)).toMatchObject({ userId: local.id });
    expect((await lastLogFor("user", local.id))?.type).toBe("ADMLLOG_LOGIN");
  });

  it("matches by login (matching 0) on preferred_username", async () => {
    const provider = await oidcProvider({ matching: MATCHING.login });
    const local = await createTestUser();
    const person = account({ preferred_username: local.login, email: `${unique("x")}@elsewhere.example` });
    const browser = new TestBrowser();
    await signInThrough(browser, provider.id, { login: person.login });
    expect((await sessionUserOf(browser))?.user.id).toBe(local.id);
  });

  it("never matches an address the provider says is unverified", async () => {
    const provider = await oidcProvider({ matching: MATCHING.email });
    const local = await createTestUser({ email: `${unique("v")}@corp.example` });
    const person = account({ email: local.email, email_verified: false });
    const browser = new TestBrowser();
    await signInThrough(browser, provider.id, { login: person.login });
    const signedIn = await sessionUserOf(browser);
    expect(signedIn?.user.id).not.toBe(local.id);
    expect(signedIn?.user.login).toBe(person.login);
  });

  it("refuses a person without an account when the provider does not provision", async () => {
    const provider = await oidcProvider({ provisioning: false });
    const person = account();
    const answer = await signInThrough(new TestBrowser(), provider.id, { login: person.login });
    expectRefused(answer, "sso_no_account");
    const db = await getDb();
    expect(await db.select().from(users).where(eq(users.login, person.login))).toHaveLength(0);
    expect((await lastLogFor("identity_provider", provider.id))?.message).toMatch(/^Single sign-on refused \(sso_no_account\)/);
  });

  it("refuses when two accounts share the address, and an account linked to another identity", async () => {
    const provider = await oidcProvider({ matching: MATCHING.email });
    const email = `${unique("dup")}@corp.example`;
    await createTestUser({ email });
    await createTestUser({ email });
    expectRefused(await signInThrough(new TestBrowser(), provider.id, { login: account({ email }).login }), "sso_account_conflict");

    const owned = await createTestUser({ email: `${unique("own")}@corp.example` });
    const other = await oidcProvider({ matching: MATCHING.email });
    const db = await getDb();
    await db.insert(identityLinks).values({ providerId: other.id, kind: "user", userId: owned.id, externalId: "someone-else" });
    expectRefused(await signInThrough(new TestBrowser(), provider.id, { login: account({ email: owned.email }).login }), "sso_account_conflict");
  });

  it("refuses an inactive account and one whose connection options forbid it", async () => {
    const provider = await oidcProvider({ matching: MATCHING.email });
    const inactive = await createTestUser({ email: `${unique("in")}@corp.example`, active: false });
    expectRefused(await signInThrough(new TestBrowser(), provider.id, { login: account({ email: inactive.email }).login }), "account_inactive");
    const db = await getDb();
    expect(await db.select().from(sessions).where(eq(sessions.userId, inactive.id))).toHaveLength(1); // only the factory's token

    const blocked = await createTestUser({ email: `${unique("bl")}@corp.example` });
    await db.insert(connectionOptions).values({ targetId: blocked.id, oauthBlocked: 1 });
    expectRefused(await signInThrough(new TestBrowser(), provider.id, { login: account({ email: blocked.email }).login }), "connection_not_allowed");
    const allowedFrom = await createTestUser({ email: `${unique("ip")}@corp.example` });
    await db.insert(connectionOptions).values({ targetId: allowedFrom.id, ips: ["192.0.2.0/24"] });
    expectRefused(await signInThrough(new TestBrowser(), provider.id, { login: account({ email: allowedFrom.email }).login }), "connection_not_allowed");
    expect((await lastLogFor("user", allowedFrom.id))?.type).toBe("ADMLLOG_LOGIN_FAILED");
  });

  it("refuses a callback whose state is not the one sent, and a callback used twice", async () => {
    const provider = await oidcProvider();
    const person = account();
    const browser = new TestBrowser();
    const start = await appStep(browser, { kind: "get", url: urlsOf(provider.id).login });
    const back = await browser.atProvider(start.location, { login: person.login });

    const forged = new URL(back.url);
    forged.searchParams.set("state", "forged-state-value-0123456789");
    expectRefused(await appStep(browser, { kind: "get", url: forged.href }), "sso_state");
    const missing = new URL(back.url);
    missing.searchParams.delete("state");
    expectRefused(await appStep(browser, { kind: "get", url: missing.href }), "sso_state");

    expect((await appStep(browser, back)).location).toBe("/");
    expectRefused(await appStep(browser, back), "sso_state");
  });

  it("finishes only in the browser that started the sign-in", async () => {
    const provider = await oidcProvider();
    const person = account();
    const victim = new TestBrowser();
    const attacker = new TestBrowser();
    const start = await appStep(attacker, { kind: "get", url: urlsOf(provider.id).login });
    const back = await attacker.atProvider(start.location, { login: person.login });
    // The attacker's callback URL, opened in another browser, signs nobody in.
    expectRefused(await appStep(victim, back), "sso_state");
    expect(await sessionUserOf(victim)).toBeNull();
  });

  it("refuses an ID token whose nonce is not the one this sign-in sent", async () => {
    const provider = await oidcProvider();
    const person = account();
    const browser = new TestBrowser();
    const start = new URL((await appStep(browser, { kind: "get", url: urlsOf(provider.id).login })).location);
    start.searchParams.set("nonce", "a-nonce-from-another-sign-in-0123456789");
    const back = await browser.atProvider(start.href, { login: person.login });
    expectRefused(await appStep(browser, back), "sso_nonce");
    expect(await sessionUserOf(browser)).toBeNull();
  });

  it("refuses a code obtained with another PKCE challenge", async () => {
    const provider = await oidcProvider();
    const person = account();
    const browser = new TestBrowser();
    const start = new URL((await appStep(browser, { kind: "get", url: urlsOf(provider.id).login })).location);
    start.searchParams.set("code_challenge", "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
    const back = await browser.atProvider(start.href, { login: person.login });
    expectRefused(await appStep(browser, back), "sso_provider");
  });

  it("sends a person who declines at the provider back to the sign-in page", async () => {
    const provider = await oidcProvider();
    const browser = new TestBrowser();
    const start = await appStep(browser, { kind: "get", url: urlsOf(provider.id).login });
    const state = new URL(start.location).searchParams.get("state")!;
    const denied = `${urlsOf(provider.id).callback}?error=access_denied&state=${state}&iss=${encodeURIComponent(op.issuer)}`;
    expectRefused(await appStep(browser, { kind: "get", url: denied }), "sso_provider");
  });

  it("does not start a sign-in with a disabled, unknown or non-SSO provider", async () => {
    const disabled = await oidcProvider({ enable: false });
    expectRefused(await appStep(new TestBrowser(), { kind: "get", url: urlsOf(disabled.id).login }), "sso_unavailable");
    expectRefused(await appStep(new TestBrowser(), { kind: "get", url: urlsOf(2_000_000_000).login }), "sso_unavailable");
  });

  it("gives the provider the public address the browser uses, and cookies fit for its scheme", async () => {
    const provider = await oidcProvider();
    const login = async (headers: Record<string, string>) => {
      // Behind server.ts, Next's request URL names the host it was started with, not the browser's.
      const res = await loginRoute.GET(new Request(`http://localhost:3000/api/sso/${provider.id}/login`, { headers }), { params: Promise.resolve({ providerId: String(provider.id) }) });
      return { redirectUri: new URL(res.headers.get("location")!).searchParams.get("redirect_uri"), cookie: res.headers.getSetCookie().join("\n") };
    };
    const plain = await login({ host: "127.0.0.1:3350", "x-forwarded-host": "127.0.0.1:3350", "x-forwarded-proto": "http" });
    expect(plain.redirectUri).toBe(`http://127.0.0.1:3350/api/sso/${provider.id}/callback`);
    expect(plain.cookie).toMatch(/^coffre-sso=[\w-]{43}; Path=\/api\/sso\/; Max-Age=900; HttpOnly; SameSite=Lax$/);
    const tls = await login({ host: "files.example.org", "x-forwarded-proto": "https" });
    expect(tls.redirectUri).toBe(`https://files.example.org/api/sso/${provider.id}/callback`);
    expect(tls.cookie).toMatch(/; Secure$/);
    // A Host header that is not a host name is not used.
    const odd = await login({ host: "evil.example/path?x=" });
    expect(odd.redirectUri).toBe(`http://localhost:3000/api/sso/${provider.id}/callback`);
  });

  it("keeps only a path of this site as the landing page", async () => {
    const provider = await oidcProvider();
    const person = account();
    const browser = new TestBrowser();
    const answer = await signInThrough(browser, provider.id, { login: person.login }, "//evil.example/phish");
    expect(answer.location).toBe("/");
  });

  it("sends an account with a second factor to the sign-in page's second step, which then opens the session", async () => {
    const { seal } = await import("@/lib/server/mfa/secret-box");
    const { userMfa } = await import("@/db/schema");
    const provider = await oidcProvider({ matching: MATCHING.email });
    const local = await createTestUser({ email: `${unique("mfa")}@corp.example` });
    const db = await getDb();
    await db.insert(userMfa).values({ userId: local.id, otpSecret: await seal("JBSWY3DPEHPK3PXP"), otpEnabledAt: new Date() });
    const browser = new TestBrowser();
    const answer = await signInThrough(browser, provider.id, { login: account({ email: local.email }).login }, "/files");
    expect(answer.status).toBe(303);
    const target = new URL(answer.location, APP);
    expect(target.pathname).toBe("/login");
    expect(target.searchParams.get("next")).toBe("/files");
    const fragment = new URLSearchParams(target.hash.slice(1));
    expect(fragment.get("mfa_token")).toMatch(/^[\w-]{20,}$/);
    expect(fragment.get("methods")).toContain("otp");
    expect(await sessionUserOf(browser)).toBeNull();
    expect((await reloadUser(local.id)).lastLogin).toBeNull();

    // The sign-in page's second step (next-auth credentials with the mfa_token) then opens the session.
    const { TOTP } = await import("otpauth");
    const { getAuthOptions } = await import("@/lib/server/auth/next-auth-options");
    const options = await getAuthOptions();
    const credentials = (options.providers[0] as unknown as { options: { authorize: (c: unknown, r: unknown) => Promise<{ id: string; sessionToken: string }> } }).options;
    const code = new TOTP({ secret: "JBSWY3DPEHPK3PXP" }).generate();
    const signedIn = await credentials.authorize({ mfa_token: fragment.get("mfa_token"), method: "otp", code }, { headers: { "x-forwarded-for": "10.9.8.7", "user-agent": "vitest-browser" } });
    expect(signedIn.id).toBe(String(local.id));
    const [row] = await db.select().from(sessions).where(eq(sessions.tokenHash, hashToken(signedIn.sessionToken)));
    expect(row).toMatchObject({ userId: local.id, kind: "web" });
  });
});
