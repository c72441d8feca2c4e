import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as accountIdentityRoute from "@/app/api/account/identity/route";
import * as loginRoute from "@/app/api/sso/[providerId]/login/route";
import * as userIdentityRoute from "@/app/api/user/[userId]/identity/route";
import { getDb } from "@/db";
import { connectionOptions, identityLinks, identityProviders, sessions, ssoFlows, users } from "@/db/schema";
import { accountIdentityResponse } from "@/lib/contracts/identity-links";
import { MATCHING } from "@/lib/contracts/identity-providers";
import { hashToken } from "@/lib/server/auth/tokens";
import { createAdmin, createTestUser, reloadUser, unique } from "../../../helpers/factories";
import { call, expectError } from "../../../helpers/http";
import { startOidcProvider, type OidcTestProvider } from "../../../helpers/oidc-provider";
import { APP, TestBrowser } from "./browser";
import { appStep, connectThrough, createSsoProvider, expectRefused, lastLogFor, linkOf, logsFor, mailsTo, sessionUserOf, signInThrough, urlsOf } from "./helpers";

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

  it("links by a verified email (matching 1) an account nothing else protects, mails its owner, never changes its email", async () => {
    const provider = await oidcProvider({ matching: MATCHING.email });
    // Created by an administrator for single sign-on: no password, no second factor, role user.
    const local = await createTestUser({ email: `${unique("m")}@corp.example`, passwordHash: null });
    const person = account({ email: local.email.toUpperCase(), preferred_username: unique("other") });
    const browser = new TestBrowser();
    await signInThrough(browser, provider.id, { login: person.login });
    expect((await sessionUserOf(browser))?.user.id).toBe(local.id);
    expect(await linkOf(provider.id, person.login)).toMatchObject({ userId: local.id });
    expect((await reloadUser(local.id)).email).toBe(local.email);
    const entries = (await logsFor(local.id)).map((l) => l.message);
    expect(entries).toContain(`Linked to ${provider.name} (oidc) by its verified email address`);
    expect(entries[0]).toBe(`Signed in (web) with ${provider.name} (oidc)`);
    const [mail] = await mailsTo(local.email);
    expect(mail.object).toContain(provider.name);
    expect(mail.content).toContain(local.login);

    // The provider's address changes: the account's stays (reset mails must not follow it).
    op.setAccount({ ...person, email: `${unique("moved")}@idp.example` });
    await signInThrough(new TestBrowser(), provider.id, { login: person.login });
    expect((await reloadUser(local.id)).email).toBe(local.email);
  });

  it("never links on preferred_username (matching 0), not even to an administrator's login", async () => {
    const provider = await oidcProvider({ matching: MATCHING.login });
    for (const local of [await createAdmin(), await createTestUser({ passwordHash: null })]) {
      const person = account({ preferred_username: local.login, email: `${unique("x")}@elsewhere.example` });
      const browser = new TestBrowser();
      expectRefused(await signInThrough(browser, provider.id, { login: person.login }), "sso_account_exists");
      expect(await sessionUserOf(browser)).toBeNull();
      expect(await linkOf(provider.id, person.login)).toBeUndefined();
      expect(await reloadUser(local.id)).toMatchObject({ email: local.email, passwordHash: local.passwordHash });
      expect((await logsFor(local.id))[0]).toMatchObject({ type: "ADMLLOG_LOGIN_FAILED", message: `Refused to link ${provider.name} (oidc): a matching login is not proof of the same person` });
      expect(await mailsTo(local.email)).toEqual([]);
    }
    // A login at the provider that looks like an existing one is not a new look-alike account either.
    const admin = await createAdmin();
    const wide = account({ preferred_username: ` ${[...admin.login].map((c) => (/[a-z]/.test(c) ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c)).join("")}` });
    expectRefused(await signInThrough(new TestBrowser(), provider.id, { login: wide.login }), "sso_account_exists");
  });

  it("never links an address the provider does not assert verified: email_verified false or absent", async () => {
    const provider = await oidcProvider({ matching: MATCHING.email });
    for (const verified of [false, undefined]) {
      const local = await createTestUser({ email: `${unique("v")}@corp.example`, passwordHash: null });
      const person = account({ email: local.email, email_verified: verified });
      const browser = new TestBrowser();
      await signInThrough(browser, provider.id, { login: person.login });
      const signedIn = await sessionUserOf(browser);
      expect(signedIn?.user.id).not.toBe(local.id);
      expect(signedIn?.user.login).toBe(person.login);
      // A new account, which does not take an address another account has.
      expect(signedIn?.user.email).toBe("");
      expect(await reloadUser(local.id)).toMatchObject({ email: local.email });
      expect(await (await getDb()).select().from(identityLinks).where(eq(identityLinks.userId, local.id))).toEqual([]);
    }
  });

  it("never links automatically, even on a verified address, an administrator, a manager, or an account with a password or a second factor", async () => {
    const { seal } = await import("@/lib/server/mfa/secret-box");
    const { userMfa } = await import("@/db/schema");
    const provider = await oidcProvider({ matching: MATCHING.email });
    const email = () => `${unique("p")}@corp.example`;
    const withFactor = await createTestUser({ email: email(), passwordHash: null });
    await (await getDb()).insert(userMfa).values({ userId: withFactor.id, otpSecret: await seal("JBSWY3DPEHPK3PXP"), otpEnabledAt: new Date() });
    const cases = [
      [await createAdmin({ email: email(), passwordHash: null }), "administrator and manager accounts are linked only from inside"],
      [await createTestUser({ role: 4, email: email(), passwordHash: null }), "administrator and manager accounts are linked only from inside"],
      [await createTestUser({ email: email() }), "the account has a password: its owner connects the provider from the account page"],
      [withFactor, "the account has a second factor: its owner connects the provider from the account page"],
    ] as const;
    for (const [local, why] of cases) {
      const person = account({ email: local.email, email_verified: true });
      const browser = new TestBrowser();
      expectRefused(await signInThrough(browser, provider.id, { login: person.login }), "sso_account_exists");
      expect(await sessionUserOf(browser)).toBeNull();
      expect(await linkOf(provider.id, person.login)).toBeUndefined();
      expect((await reloadUser(local.id)).email).toBe(local.email);
      expect((await logsFor(local.id))[0].message).toBe(`Refused to link ${provider.name} (oidc): ${why}`);
    }
    expect((await lastLogFor("identity_provider", provider.id))?.message).toMatch(/^Single sign-on refused \(sso_account_exists\)/);
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

    const owned = await createTestUser({ email: `${unique("own")}@corp.example`, passwordHash: null });
    const other = await oidcProvider({ matching: MATCHING.email });
    const db = await getDb();
    await db.insert(identityLinks).values({ providerId: other.id, kind: "user", userId: owned.id, externalId: "someone-else" });
    expectRefused(await signInThrough(new TestBrowser(), provider.id, { login: account({ email: owned.email }).login }), "sso_account_conflict");
  });

  it("refuses an inactive account and one whose connection options forbid it", async () => {
    const provider = await oidcProvider({ matching: MATCHING.email });
    const inactive = await createTestUser({ email: `${unique("in")}@corp.example`, active: false, passwordHash: null });
    expectRefused(await signInThrough(new TestBrowser(), provider.id, { login: account({ email: inactive.email }).login }), "account_inactive");
    const db = await getDb();
    expect(await db.select().from(sessions).where(eq(sessions.userId, inactive.id))).toHaveLength(1); // only the factory's token
    // Not linked for later either, nor mailed.
    expect(await db.select().from(identityLinks).where(eq(identityLinks.userId, inactive.id))).toEqual([]);
    expect(await mailsTo(inactive.email)).toEqual([]);

    const blocked = await createTestUser({ email: `${unique("bl")}@corp.example`, passwordHash: null });
    await db.insert(connectionOptions).values({ targetId: blocked.id, oauthBlocked: 1 });
    expectRefused(await signInThrough(new TestBrowser(), provider.id, { login: account({ email: blocked.email }).login }), "connection_not_allowed");
    const allowedFrom = await createTestUser({ email: `${unique("ip")}@corp.example`, passwordHash: null });
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
    // Such an account is linked from inside only (here, as an administrator would in the console).
    const person = account({ email: local.email });
    await db.insert(identityLinks).values({ providerId: provider.id, kind: "user", userId: local.id, externalId: person.login });
    const browser = new TestBrowser();
    const answer = await signInThrough(browser, provider.id, { login: person.login }, "/files");
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

describe("linking an existing account from inside", () => {
  it("the signed-in owner connects the provider from the account page, with their password", async () => {
    const provider = await oidcProvider({ matching: MATCHING.login });
    // An administrator with a password: never linked automatically, connected by themselves.
    const admin = await createAdmin({ email: `${unique("adm")}@corp.example` });
    const person = account({ preferred_username: unique("someone"), email: `${unique("idp")}@idp.example` });
    const browser = new TestBrowser();
    const done = await connectThrough(browser, admin.token, provider.id, admin.password, { login: person.login });
    expect(done.location).toBe(`/account?sso_connected=${provider.id}`);
    // Connecting opens no session: the person is signed in already.
    expect(done.res.headers.getSetCookie().some((c) => c.includes("next-auth.session-token"))).toBe(false);
    expect(await linkOf(provider.id, person.login)).toMatchObject({ userId: admin.id });
    expect((await logsFor(admin.id))[0].message).toBe(`Linked to ${provider.name} (oidc) by its owner`);
    expect((await mailsTo(admin.email)).map((m) => m.object)).toEqual([expect.stringContaining(provider.name)]);
    const read = await call(accountIdentityRoute.GET, { token: admin.token });
    expect(accountIdentityResponse.parse(read.body).identity).toMatchObject({ provider_id: String(provider.id), provider_name: provider.name, type: "oidc", external_id: person.login });

    // From now on the provider signs the administrator in; the account's email stays its own.
    const signedIn = new TestBrowser();
    expect((await signInThrough(signedIn, provider.id, { login: person.login })).location).toBe("/files");
    expect((await sessionUserOf(signedIn))?.user.id).toBe(admin.id);
    expect(await reloadUser(admin.id)).toMatchObject({ email: admin.email, login: admin.login, passwordHash: admin.passwordHash });

    // Linked already: a second provider is refused until an administrator removes the link.
    const other = await oidcProvider();
    expectError(await call(accountIdentityRoute.POST, { method: "POST", token: admin.token, body: { provider_id: other.id, password: admin.password } }), 409, "conflict");
  });

  it("refuses without the password, with a wrong one, as someone else (AsId), and an identity that opens another account", async () => {
    const provider = await oidcProvider();
    const user = await createTestUser();
    const post = (body: unknown, headers: Record<string, string> = {}, token = user.token) => call(accountIdentityRoute.POST, { method: "POST", token, body, headers: { "x-forwarded-for": "10.9.3.3", ...headers } });
    expectError(await post({ provider_id: provider.id }), 400, "reauth_required");
    expectError(await post({ provider_id: provider.id, password: "Wrong-pass-1" }), 403, "forbidden");
    expectError(await post({ provider_id: 2_000_000_000, password: user.password }), 404, "not_found");
    expectError(await call(accountIdentityRoute.POST, { method: "POST", body: { provider_id: provider.id, password: user.password } }), 401, "unauthorized");
    const admin = await createAdmin();
    expectError(await post({ provider_id: provider.id, password: admin.password }, { asid: String(user.id) }, admin.token), 403, "forbidden");

    // The identity already opens another account: refused, back on the account page.
    const person = account();
    await signInThrough(new TestBrowser(), provider.id, { login: person.login });
    const taken = await connectThrough(new TestBrowser(), user.token, provider.id, user.password, { login: person.login });
    expect(taken.location).toBe("/account?sso_error=sso_account_conflict");
    expect(await linkOf(provider.id, person.login)).not.toMatchObject({ userId: user.id });
    expect(await (await getDb()).select().from(identityLinks).where(eq(identityLinks.userId, user.id))).toEqual([]);
  });

  it("an administrator links and unlinks an account's identity in the console; the owner is mailed", async () => {
    const provider = await oidcProvider({ matching: MATCHING.email });
    const admin = await createAdmin();
    const manager = await createTestUser({ role: 4, email: `${unique("mgr")}@corp.example` });
    const person = account({ email: `${unique("idp")}@idp.example` });
    const params = { userId: String(manager.id) };
    const put = (body: unknown, token = admin.token) => call(userIdentityRoute.PUT, { method: "PUT", token, params, body });

    expectError(await put({ provider_id: provider.id, external_id: person.login }, manager.token), 403, "forbidden");
    expectError(await call(userIdentityRoute.GET, { token: manager.token, params }), 403, "forbidden");
    const linked = await put({ provider_id: provider.id, external_id: person.login });
    expect(linked.status, linked.text).toBe(200);
    expect(accountIdentityResponse.parse(linked.body).identity).toMatchObject({ provider_id: String(provider.id), external_id: person.login });
    expect((await logsFor(manager.id))[0]).toMatchObject({ userId: admin.id, message: `Linked to ${provider.name} (oidc) by ${admin.login}` });
    expect(await mailsTo(manager.email)).toHaveLength(1);
    const browser = new TestBrowser();
    await signInThrough(browser, provider.id, { login: person.login });
    expect((await sessionUserOf(browser))?.user.id).toBe(manager.id);
    expect((await reloadUser(manager.id)).email).toBe(manager.email);

    // The same identity for another account, another identity for this one: remove the link first.
    const other = await createTestUser();
    expectError(await call(userIdentityRoute.PUT, { method: "PUT", token: admin.token, params: { userId: String(other.id) }, body: { provider_id: provider.id, external_id: person.login } }), 409, "conflict");
    expectError(await put({ provider_id: provider.id, external_id: "another-subject" }), 409, "conflict");
    // Only single sign-on identities are linked by hand; bad bodies are 400.
    const [directory] = await (await getDb()).insert(identityProviders).values({ name: unique("ldap "), type: "ldap", enable: false, settings: {} }).returning();
    expectError(await put({ provider_id: directory.id, external_id: "uuid" }), 400, "invalid_request");
    expectError(await put({ provider_id: provider.id, external_id: "" }), 400, "invalid_request");
    expectError(await put({ provider_id: 2_000_000_000, external_id: "x" }), 404, "not_found");

    const cleared = await call(userIdentityRoute.DELETE, { method: "DELETE", token: admin.token, params });
    expect(cleared.status).toBe(204);
    expect((await call(userIdentityRoute.GET, { token: admin.token, params })).body).toEqual({ identity: null });
    expect((await logsFor(manager.id))[0].message).toBe(`Unlinked from ${provider.name} (oidc)`);
    // The manager's address at the provider is verified, but a manager is linked from inside only.
    expectRefused(await signInThrough(new TestBrowser(), provider.id, { login: account({ ...person, email: manager.email }).login }), "sso_account_exists");
  });

  it("sends a person who declines at the provider while connecting back to the account page", async () => {
    const provider = await oidcProvider();
    const user = await createTestUser();
    const browser = new TestBrowser();
    const started = await call(accountIdentityRoute.POST, { method: "POST", token: user.token, body: { provider_id: provider.id, password: user.password } });
    browser.store(`${APP}/api/account/identity`, started.headers);
    const state = new URL(started.body.url).searchParams.get("state")!;
    const denied = await appStep(browser, { kind: "get", url: `${urlsOf(provider.id).callback}?error=access_denied&state=${state}&iss=${encodeURIComponent(op.issuer)}` });
    expect(denied.location).toBe("/account?sso_error=sso_provider");
  });
});
