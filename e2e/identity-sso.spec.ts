import { randomBytes } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { startOidcProvider, type OidcTestProvider } from "../tests/helpers/oidc-provider";
import { startSimpleSamlPhp, type SimpleSamlPhp } from "../tests/helpers/simplesamlphp";
import { E2E_PORT } from "./env";
import { adminApi, createUser, screenshot, signIn } from "./helpers";

// Single sign-on journeys: a person signs in from the sign-in page through a real OpenID provider
// (oidc-provider) and a real SAML identity provider (SimpleSAMLphp), lands in the app, and finds
// an account made for them with their name and address.

const APP = `http://127.0.0.1:${E2E_PORT}`;
const suffix = randomBytes(3).toString("hex");
// Fixed names: every run starts on a fresh database (playwright.config.ts), and screenshots stay comparable.
const OIDC_NAME = "Corporate ID";
const SAML_NAME = "Campus SAML";
const CLOSED_NAME = "Partner ID";
const oidcPerson = { login: "ada", given_name: "Ada", family_name: "Lovelace", email: "ada@corp.example", email_verified: true, preferred_username: "ada" };
const stranger = { login: "stranger", given_name: "Nobody", family_name: "Known", email: "stranger@partner.example", email_verified: true };
// Has a local account with a password and the same address: never taken over, connected from inside.
const linkPerson = { login: "mary", given_name: "Mary", family_name: "Somerville", email: "mary@corp.example", email_verified: true, preferred_username: "mary" };
const mfaPerson = { login: "grace", given_name: "Grace", family_name: "Hopper", email: "grace.hopper@corp.example", email_verified: true, preferred_username: "grace" };
const samlPerson = { username: "alan", password: "Campus-pass-42", attributes: { mail: ["alan@campus.example"], givenName: ["Alan"], sn: ["Turing"] } };

let op: OidcTestProvider;
let idp: SimpleSamlPhp;
let oidcId: string;
const providerIds: string[] = [];

async function createProvider(request: APIRequestContext, body: Record<string, unknown>): Promise<string> {
  const { headers, end } = await adminApi(request);
  const res = await request.post("/api/identity/provider", { headers, data: body });
  expect(res.status(), await res.text()).toBe(201);
  const { id } = await res.json();
  await end();
  providerIds.push(id);
  return id;
}

async function accountOf(request: APIRequestContext, login: string) {
  const { headers, end } = await adminApi(request);
  const res = await request.get(`/api/users?keyword=${encodeURIComponent(login)}`, { headers });
  const body = await res.json();
  await end();
  return (body.objects as Array<Record<string, unknown>>).find((u) => u.login === login);
}

/** The provider's own pages: its sign-in form, then its consent. */
async function signInAtProvider(page: Page, login: string) {
  await expect(page).toHaveURL(new RegExp(`^${op.issuer}/interaction/`));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("anything");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
}

async function signOut(page: Page) {
  await page.getByRole("button", { name: /User menu/ }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page).toHaveURL("/login");
}

test.beforeAll(async ({ request }) => {
  op = await startOidcProvider({ accounts: [oidcPerson, stranger, mfaPerson, linkPerson] });
  idp = await startSimpleSamlPhp({ users: [samlPerson] });
  const clientSecret = randomBytes(24).toString("hex");
  oidcId = await createProvider(request, { type: "oidc", name: OIDC_NAME, client_id: `coffre-${suffix}`, client_secret: clientSecret, discovery: op.discoveryUrl, matching: 1 });
  op.addClient({ client_id: `coffre-${suffix}`, client_secret: clientSecret, redirect_uris: [`${APP}/api/sso/${oidcId}/callback`] });
  // A provider that creates no account: a person it knows but the platform does not is refused.
  const closedId = await createProvider(request, { type: "oidc", name: CLOSED_NAME, client_id: `partner-${suffix}`, client_secret: clientSecret, discovery: op.issuer, provisioning: false });
  op.addClient({ client_id: `partner-${suffix}`, client_secret: clientSecret, redirect_uris: [`${APP}/api/sso/${closedId}/callback`] });
  const samlId = await createProvider(request, { type: "saml2", name: SAML_NAME, discovery: idp.metadataUrl, matching: 1 });
  idp.setServiceProviders([{ entityId: `${APP}/api/sso/${samlId}/saml/metadata`, acsUrl: `${APP}/api/sso/${samlId}/saml/acs` }]);
});

test.afterAll(async ({ request }) => {
  // Leave the other journeys a sign-in page without these buttons.
  const { headers, end } = await adminApi(request);
  for (const id of providerIds) await request.delete(`/api/identity/provider/${id}`, { headers });
  await end();
  await op?.stop();
  await idp?.stop();
});

test("an OpenID Connect user signs in from the sign-in page and is provisioned", async ({ page, request }) => {
  await page.goto("/login");
  const button = page.getByRole("link", { name: `Sign in with ${OIDC_NAME}` });
  await expect(button).toBeVisible();
  await screenshot(page, "sso-sign-in-buttons");
  await button.click();

  await signInAtProvider(page, oidcPerson.login);

  await expect(page).toHaveURL(`${APP}/`);
  await expect(page.getByTestId("user-name")).toHaveText("Ada Lovelace");
  await screenshot(page, "sso-oidc-signed-in");
  const account = await accountOf(request, oidcPerson.login);
  expect(account).toMatchObject({ login: oidcPerson.login, firstname: "Ada", lastname: "Lovelace", email: oidcPerson.email });
  await signOut(page);
});

test("a SAML user signs in from the sign-in page and is provisioned", async ({ page, request }) => {
  await page.goto("/login");
  await page.getByRole("link", { name: `Sign in with ${SAML_NAME}` }).click();

  // SimpleSAMLphp's sign-in form; its answer is posted back to the app by its own page.
  await expect(page).toHaveURL(new RegExp(`^${idp.url}/module.php/core/loginuserpass.php`));
  await page.locator('input[name="username"]').fill(samlPerson.username);
  await page.locator('input[name="password"]').fill(samlPerson.password);
  await page.locator('button[type="submit"], input[type="submit"]').first().click();

  await expect(page).toHaveURL(`${APP}/`);
  await expect(page.getByTestId("user-name")).toHaveText("Alan Turing");
  await screenshot(page, "sso-saml-signed-in");
  const account = await accountOf(request, samlPerson.username);
  expect(account).toMatchObject({ login: samlPerson.username, firstname: "Alan", lastname: "Turing", email: samlPerson.attributes.mail[0] });
  await signOut(page);
});

test("a person the platform does not know is sent back to the sign-in page with the reason", async ({ page }) => {
  await page.goto("/login");
  await page.getByRole("link", { name: `Sign in with ${CLOSED_NAME}` }).click();
  await signInAtProvider(page, stranger.login);

  await expect(page).toHaveURL(`${APP}/login?sso_error=sso_no_account`);
  await expect(page.getByRole("main").getByRole("alert")).toHaveText("No account here matches your identity. Contact your administrator.");
  await expect(page.getByLabel("Login", { exact: true })).toBeVisible();
  await screenshot(page, "sso-refused");
});

test("an account with an authenticator app signs in through its provider, then gives its code", async ({ page, request }) => {
  // A local account with an authenticator app set up through the API.
  const local = await createUser(request, { email: mfaPerson.email, firstname: "Grace", lastname: "Hopper" });
  const auth = await request.post("/api/auth", { data: { user: local.login, password: local.password } });
  const headers = { Authorization: `Bearer ${(await auth.json()).token}` };
  const { secret } = await (await request.post("/api/account/mfa/otp", { headers, data: { password: local.password } })).json();
  const totp = (steps: number) => new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + steps * 30_000 });
  expect((await request.put("/api/account/mfa/otp", { headers, data: { code: totp(0) } })).status()).toBe(200);
  const { id } = await (await request.get("/api/account", { headers })).json();
  await request.delete("/api/auth", { headers });
  // With a password and a second factor it is never linked by its address (issue 25): an administrator links it.
  const admin = await adminApi(request);
  const linked = await request.put(`/api/user/${id}/identity`, { headers: admin.headers, data: { provider_id: oidcId, external_id: mfaPerson.login } });
  expect(linked.status(), await linked.text()).toBe(200);
  await admin.end();

  await page.goto("/login");
  await page.getByRole("link", { name: `Sign in with ${OIDC_NAME}` }).click();
  await signInAtProvider(page, mfaPerson.login);

  // Back on the sign-in page, at its second step; the sign-in token left the address bar.
  const step = page.getByTestId("mfa-step");
  await expect(step).toBeVisible();
  await expect(page).toHaveURL(`${APP}/login?next=%2F`);
  await step.getByLabel("Code from your authenticator app").fill(totp(1));
  await step.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(`${APP}/`);
  await expect(page.getByTestId("user-name")).toHaveText("Grace Hopper");
  await signOut(page);
});

test("an account with a password is never taken over by an identity with its address: its owner connects the provider from the account page", async ({ page, browser, request }) => {
  const local = await createUser(request, { login: `mary_${suffix}`, email: linkPerson.email, firstname: "Mary", lastname: "Somerville" });

  // Through the provider, with a verified address equal to the account's: refused, and told what to do (issue 25).
  await page.goto("/login");
  await page.getByRole("link", { name: `Sign in with ${OIDC_NAME}` }).click();
  await signInAtProvider(page, linkPerson.login);
  await expect(page).toHaveURL(`${APP}/login?sso_error=sso_account_exists`);
  await expect(page.getByRole("main").getByRole("alert")).toContainText("Sign in with your password, then connect this provider from your account page");
  await screenshot(page, "sso-account-exists");

  // The owner signs in with the password (a browser of their own: no session at the provider yet)
  // and connects the provider, confirming with the password again.
  const owner = await (await browser.newContext({ baseURL: APP })).newPage();
  await signIn(owner, local.password, local.login);
  await expect(owner.getByTestId("user-name")).toHaveText("Mary Somerville");
  await owner.goto("/account");
  const card = owner.getByRole("region", { name: "Sign-in providers" });
  await card.getByRole("button", { name: `Connect ${OIDC_NAME}` }).click();
  const confirm = owner.getByRole("dialog", { name: `Connect ${OIDC_NAME}` });
  await confirm.getByLabel("Password", { exact: true }).fill("not-the-password");
  await confirm.getByRole("button", { name: "Continue" }).click();
  await expect(confirm.getByText("This password or code is wrong.")).toBeVisible();
  await confirm.getByLabel("Password", { exact: true }).fill(local.password);
  await screenshot(owner, "account-connect-provider");
  await confirm.getByRole("button", { name: "Continue" }).click();
  await signInAtProvider(owner, linkPerson.login);
  await expect(owner).toHaveURL(new RegExp(`^${APP}/account\\?sso_connected=`));
  await expect(card.getByText(`Signing in with ${OIDC_NAME} opens this account.`)).toBeVisible();
  await screenshot(owner, "account-provider-connected", { show: card });
  await owner.context().close();

  // From now on the provider opens this account (its session at the provider is still open:
  // no pages of its own this time); the account's address is the one it had.
  await page.getByRole("link", { name: `Sign in with ${OIDC_NAME}` }).click();
  await expect(page).toHaveURL(`${APP}/`);
  await expect(page.getByTestId("user-name")).toHaveText("Mary Somerville");
  expect(await accountOf(request, local.login)).toMatchObject({ login: local.login, email: linkPerson.email });
  await signOut(page);
});
