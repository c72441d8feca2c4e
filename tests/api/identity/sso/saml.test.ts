import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as acsRoute from "@/app/api/sso/[providerId]/saml/acs/route";
import * as metadataRoute from "@/app/api/sso/[providerId]/saml/metadata/route";
import { getDb } from "@/db";
import { ssoReplays, users, type IdentityProviderRow } from "@/db/schema";
import { MATCHING } from "@/lib/contracts/identity-providers";
import { createAdmin, createTestUser, reloadUser, unique } from "../../../helpers/factories";
import { call, expectError } from "../../../helpers/http";
import { startSimpleSamlPhp, type SamlTestSp, type SamlTestUser, type SimpleSamlPhp } from "../../../helpers/simplesamlphp";
import { APP, TestBrowser, type Step } from "./browser";
import { appStep, connectThrough, createSsoProvider, expectRefused, lastLogFor, linkOf, logsFor, mailsTo, sessionUserOf, signInThrough, urlsOf } from "./helpers";

// SAML 2.0 sign-in against a real identity provider (SimpleSAMLphp from Debian, served by PHP):
// SP metadata, AuthnRequest, signed assertions, expiry, replays, IdP-initiated sign-in.

let idp: SimpleSamlPhp;
const people: SamlTestUser[] = [];
const sps: SamlTestSp[] = [];

function person(overrides: Partial<Record<string, string[]>> = {}): SamlTestUser {
  const username = unique("saml_");
  return { username, password: "Idp-pass-42", attributes: { mail: [`${username}@idp.example`], givenName: ["Ada"], sn: ["Lovelace"], ...overrides } };
}
let alice: SamlTestUser;
let bob: SamlTestUser;
let carol: SamlTestUser;
let matched: SamlTestUser;
let dave: SamlTestUser;
let erin: SamlTestUser;
let guarded: SamlTestUser;
let connector: SamlTestUser;
let guardedEmail: string;

/** A saml2 provider, registered at the IdP as a service provider with these options. */
async function samlProvider(options: { provisioning?: boolean; idp_initiated?: boolean; emails_verified?: boolean; matching?: number } = {}, sp: Partial<SamlTestSp> = {}) {
  const row = await createSsoProvider({ type: "saml2", discovery: idp.metadataUrl, ...options });
  sps.push({ entityId: urlsOf(row.id).metadata, acsUrl: urlsOf(row.id).acs, ...sp });
  idp.setServiceProviders(sps);
  return row;
}

let main: IdentityProviderRow;
let expired: IdentityProviderRow;
let unsigned: IdentityProviderRow;
let responseOnly: IdentityProviderRow;
let idpInitiated: IdentityProviderRow;
let localEmail: string;

beforeAll(async () => {
  alice = person();
  bob = person({ givenName: [], sn: [], displayName: ["Bob Marley"] });
  carol = person();
  localEmail = `${unique("local")}@corp.example`;
  matched = person({ mail: [localEmail] });
  dave = person();
  erin = person();
  guardedEmail = `${unique("guarded")}@corp.example`;
  guarded = person({ mail: [guardedEmail] });
  connector = person();
  people.push(alice, bob, carol, matched, dave, erin, guarded, connector);
  idp = await startSimpleSamlPhp({ users: people });
  main = await samlProvider({ matching: MATCHING.email });
  // Assertions born 90 s out of date: what a captured assertion looks like when it is used later.
  expired = await samlProvider({}, { assertionLifetime: -90 });
  unsigned = await samlProvider({}, { signAssertion: false, signResponse: false });
  responseOnly = await samlProvider({}, { signAssertion: false, signResponse: true });
  idpInitiated = await samlProvider({ idp_initiated: true });
}, 60_000);

afterAll(async () => {
  await idp?.stop();
});

const fill = (p: SamlTestUser) => ({ username: p.username, password: p.password });

/** The response the IdP posts for a sign-in started by `browser`, not yet given to the app. */
async function responseFor(browser: TestBrowser, provider: IdentityProviderRow, who: SamlTestUser): Promise<Step & { kind: "post" }> {
  const start = await appStep(browser, { kind: "get", url: urlsOf(provider.id).login });
  expect(start.status).toBe(303);
  const step = await browser.atProvider(start.location, fill(who));
  expect(step).toMatchObject({ kind: "post", url: urlsOf(provider.id).acs });
  return step as Step & { kind: "post" };
}

describe("SAML 2.0 sign-in", () => {
  it("serves the service provider's metadata at a stable address that is its entity ID", async () => {
    const res = await call(metadataRoute.GET, { path: `/api/sso/${main.id}/saml/metadata`, params: { providerId: String(main.id) } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/samlmetadata\+xml/);
    expect(res.text).toContain(`entityID="${urlsOf(main.id).metadata}"`);
    expect(res.text).toContain(`Location="${urlsOf(main.id).acs}"`);
    expect(res.text).toContain('WantAssertionsSigned="true"');
    const none = await call(metadataRoute.GET, { params: { providerId: "2000000000" } });
    expect(none.status).toBe(404);
  });

  it("sends an AuthnRequest, verifies the signed assertion and provisions the account", async () => {
    const browser = new TestBrowser();
    const start = await appStep(browser, { kind: "get", url: `${urlsOf(main.id).login}?next=/files/7` });
    const sso = new URL(start.location);
    expect(sso.href.startsWith(`${idp.url}/saml2/idp/SSOService.php?`)).toBe(true);
    expect(sso.searchParams.get("SAMLRequest")).toBeTruthy();

    const post = await browser.atProvider(sso.href, fill(alice));
    expect(post).toMatchObject({ kind: "post", url: urlsOf(main.id).acs });
    const accepted = await appStep(browser, post);
    expect(accepted.status).toBe(303);
    expect(accepted.location).toMatch(new RegExp(`^/api/sso/${main.id}/saml/acs\\?ticket=[\\w-]{43}$`));
    const done = await appStep(browser, { kind: "get", url: new URL(accepted.location, APP).href });
    expect(done.location).toBe("/files/7");

    const signedIn = await sessionUserOf(browser);
    expect(signedIn?.user).toMatchObject({ login: alice.username, email: alice.attributes.mail[0], firstname: "Ada", lastname: "Lovelace", role: 2, active: true });
    expect(signedIn?.session.kind).toBe("web");
    expect(await linkOf(main.id, alice.username)).toMatchObject({ userId: signedIn!.user.id });
    expect((await lastLogFor("user", signedIn!.user.id))?.message).toBe(`Signed in (web) with ${main.name} (saml2)`);
  });

  it("splits a display name when the IdP sends no given name and surname", async () => {
    const browser = new TestBrowser();
    await signInThrough(browser, main.id, fill(bob));
    expect((await sessionUserOf(browser))?.user).toMatchObject({ firstname: "Bob", lastname: "Marley" });
  });

  it("matches an address only when the provider's settings say its addresses are verified, then never changes it", async () => {
    // An account made for single sign-on: no password, no second factor, role user.
    const local = await createTestUser({ email: localEmail, passwordHash: null });
    // `main` leaves emails_verified off: the address is not proof, a new account is made beside.
    const first = new TestBrowser();
    await signInThrough(first, main.id, fill(matched));
    const beside = (await sessionUserOf(first))?.user;
    expect(beside?.id).not.toBe(local.id);
    expect(beside?.email).toBe("");
    expect(await reloadUser(local.id)).toMatchObject({ email: localEmail });
    expect(await mailsTo(localEmail)).toEqual([]);

    const verified = await samlProvider({ matching: MATCHING.email, emails_verified: true });
    const second = new TestBrowser();
    await signInThrough(second, verified.id, fill(matched));
    expect((await sessionUserOf(second))?.user.id).toBe(local.id);
    expect(await linkOf(verified.id, matched.username)).toMatchObject({ userId: local.id });
    expect((await logsFor(local.id)).map((l) => l.message)).toContain(`Linked to ${verified.name} (saml2) by its verified email address`);
    expect(await mailsTo(localEmail)).toHaveLength(1);
    const again = new TestBrowser();
    await signInThrough(again, verified.id, fill(matched));
    expect((await sessionUserOf(again))?.user.id).toBe(local.id);
    const db = await getDb();
    expect(await db.select().from(users).where(eq(users.email, localEmail))).toHaveLength(1);

    // Even verified, an address never links an administrator: its owner connects from inside.
    const admin = await createAdmin({ email: guardedEmail });
    const refused = new TestBrowser();
    expectRefused(await signInThrough(refused, verified.id, fill(guarded)), "sso_account_exists");
    expect(await sessionUserOf(refused)).toBeNull();
    expect(await reloadUser(admin.id)).toMatchObject({ email: guardedEmail });
    expect((await logsFor(admin.id))[0].message).toBe(`Refused to link ${verified.name} (saml2): administrator and manager accounts are linked only from inside`);
  });

  it("connects the provider from the account page: the verified assertion links the account that started, signs nobody in", async () => {
    const user = await createTestUser();
    const owner = connector;
    const browser = new TestBrowser();
    const done = await connectThrough(browser, user.token, main.id, user.password, fill(owner));
    expect(done.location).toBe(`/account?sso_connected=${main.id}`);
    expect(await sessionUserOf(browser)).toBeNull();
    expect(await linkOf(main.id, owner.username)).toMatchObject({ userId: user.id });
    expect(await mailsTo(user.email)).toHaveLength(1);
    const signedIn = new TestBrowser();
    await signInThrough(signedIn, main.id, fill(owner));
    expect((await sessionUserOf(signedIn))?.user.id).toBe(user.id);
    expect(await reloadUser(user.id)).toMatchObject({ email: user.email, login: user.login });
  });

  it("refuses an expired assertion", async () => {
    const browser = new TestBrowser();
    const post = await responseFor(browser, expired, carol);
    expectRefused(await appStep(browser, post), "sso_assertion");
    expect((await lastLogFor("identity_provider", expired.id))?.message).toMatch(/expired|No valid subject confirmation/); // its NotOnOrAfter has passed
    expect(await sessionUserOf(browser)).toBeNull();
  });

  it("refuses an unsigned assertion, even inside a signed response", async () => {
    for (const provider of [unsigned, responseOnly]) {
      const browser = new TestBrowser();
      const post = await responseFor(browser, provider, carol);
      expectRefused(await appStep(browser, post), "sso_assertion");
      expect(await sessionUserOf(browser)).toBeNull();
    }
  });

  it("refuses a replayed response", async () => {
    const browser = new TestBrowser();
    const post = await responseFor(browser, main, carol);
    const first = await appStep(browser, post);
    expect(first.location).toMatch(/saml\/acs\?ticket=/);
    // The same bytes posted again, by the same browser or another one.
    expectRefused(await appStep(browser, post), "sso_replay");
    expectRefused(await appStep(new TestBrowser(), post), "sso_replay");
    await appStep(browser, { kind: "get", url: new URL(first.location, APP).href });
    expect((await sessionUserOf(browser))?.user.login).toBe(carol.username);
  });

  it("refuses a response posted to another provider's assertion consumer service", async () => {
    const browser = new TestBrowser();
    const post = await responseFor(browser, main, carol);
    // It answers no request of that provider (and names another audience).
    expectRefused(await appStep(browser, { ...post, url: urlsOf(idpInitiated.id).acs }), "sso_state");
    expectRefused(await appStep(browser, { ...post, url: urlsOf(unsigned.id).acs }), "sso_state");
  });

  it("finishes only in the browser that started the sign-in, once", async () => {
    const attacker = new TestBrowser();
    const post = await responseFor(attacker, main, carol);
    const ticket = new URL((await appStep(attacker, post)).location, APP).href;
    const victim = new TestBrowser();
    expectRefused(await appStep(victim, { kind: "get", url: ticket }), "sso_state");
    expect(await sessionUserOf(victim)).toBeNull();
    // The ticket was spent by that attempt.
    expectRefused(await appStep(attacker, { kind: "get", url: ticket }), "sso_state");
  });

  it("refuses IdP-initiated sign-in unless the provider allows it", async () => {
    const browser = new TestBrowser();
    const post = await browser.atProvider(idp.idpInitiatedUrl(urlsOf(main.id).metadata), fill(carol));
    expect(post).toMatchObject({ kind: "post", url: urlsOf(main.id).acs });
    expectRefused(await appStep(browser, post), "sso_idp_initiated");
    expect(await sessionUserOf(browser)).toBeNull();
  });

  it("accepts IdP-initiated sign-in where allowed, once per assertion", async () => {
    const browser = new TestBrowser();
    const post = await browser.atProvider(idp.idpInitiatedUrl(urlsOf(idpInitiated.id).metadata, "/files/9"), fill(dave));
    const accepted = await appStep(browser, post);
    expect(accepted.location).toMatch(/saml\/acs\?ticket=/);
    expectRefused(await appStep(new TestBrowser(), post), "sso_replay");
    const done = await appStep(browser, { kind: "get", url: new URL(accepted.location, APP).href });
    expect(done.location).toBe("/files/9");
    expect((await sessionUserOf(browser))?.user.email).toBe(dave.attributes.mail[0]);
    const db = await getDb();
    const [replay] = await db.select().from(ssoReplays).where(eq(ssoReplays.providerId, idpInitiated.id));
    expect(replay.expiresAt.getTime()).toBeGreaterThan(Date.now());
  });

  it("refuses a person without an account when the provider does not provision", async () => {
    const closed = await samlProvider({ provisioning: false });
    const answer = await signInThrough(new TestBrowser(), closed.id, fill(erin));
    expectRefused(answer, "sso_no_account");
    const db = await getDb();
    expect(await db.select().from(users).where(eq(users.login, erin.username))).toHaveLength(0);
  });

  it("answers malformed requests with the contract's error body", async () => {
    const params = { providerId: String(main.id) };
    expectError(await call(acsRoute.POST, { method: "POST", params, body: {} }), 400, "invalid_request");
    expectError(await call(acsRoute.POST, { method: "POST", params, rawBody: "SAMLResponse=%3Cnot-base64%3E", headers: { "content-type": "application/x-www-form-urlencoded" } }), 400, "invalid_request");
    expectError(await call(acsRoute.POST, { method: "POST", params, rawBody: `SAMLResponse=${"A".repeat(2 * 1024 * 1024)}`, headers: { "content-type": "application/x-www-form-urlencoded" } }), 413, "payload_too_large");
    expectError(await call(acsRoute.GET, { params, query: { ticket: "short" } }), 400, "invalid_request");
    expectError(await call(acsRoute.POST, { method: "POST", params: { providerId: "abc" }, body: { SAMLResponse: "QUJD" } }), 400, "invalid_request");
    expectError(await call(acsRoute.PUT, { method: "PUT", params }), 405, "method_not_allowed");
    // Well-formed but not a SAML response: refused like any response nobody asked for, or that does not verify.
    const garbage = Buffer.from("<hello/>").toString("base64");
    expectRefused(await appStep(new TestBrowser(), { kind: "post", url: urlsOf(main.id).acs, fields: { SAMLResponse: garbage } }), "sso_idp_initiated");
    expectRefused(await appStep(new TestBrowser(), { kind: "post", url: urlsOf(idpInitiated.id).acs, fields: { SAMLResponse: garbage } }), "sso_assertion");
    const doctype = Buffer.from('<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" InResponseTo="_x">&e;</samlp:Response>').toString("base64");
    expectRefused(await appStep(new TestBrowser(), { kind: "post", url: urlsOf(idpInitiated.id).acs, fields: { SAMLResponse: doctype } }), "sso_assertion");
  });

  it("refuses a forged response", async () => {
    const browser = new TestBrowser();
    const post = await responseFor(browser, main, carol);
    const xml = Buffer.from(post.fields.SAMLResponse, "base64").toString("utf8");
    const forged = xml.replace(carol.attributes.mail[0], `admin@corp.example`);
    expect(forged).not.toBe(xml);
    expectRefused(await appStep(browser, { ...post, fields: { ...post.fields, SAMLResponse: Buffer.from(forged).toString("base64") } }), "sso_assertion");
  });
});
