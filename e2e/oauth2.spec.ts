import AxeBuilder from "@axe-core/playwright";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import * as client from "openid-client";
import { ADMIN, E2E_PORT } from "./env";
import { createUser, screenshot, signInAsAdmin } from "./helpers";

// Issue 16: an administrator registers an application in the console (the secret shown once), a
// person authorises it on the consent screen (signed out first: /login and back), openid-client
// exchanges the code with PKCE, the person sees and revokes it from the account page.

const SERVER = `http://127.0.0.1:${E2E_PORT}`;

/** axe-core's serious and critical findings (as e2e/accessibility.spec.ts counts them). */
async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}

/** The application's own web server: where the browser lands with the code. */
async function callbackServer() {
  const server = http.createServer((_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("client callback"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`, close: () => new Promise((r) => server.close(r)) };
}

/** Creates the application through the console's dialog; returns the credentials the secret dialog shows once. */
async function registerInConsole(page: Page, callback: string) {
  await signInAsAdmin(page);
  await page.goto("/admin");
  await page.getByRole("link", { name: "Applications" }).click();
  await expect(page.getByRole("heading", { name: "OAuth2 applications" })).toBeVisible();
  await page.getByRole("button", { name: "New application" }).click();
  const dialog = page.getByRole("dialog", { name: "New application" });
  await dialog.getByLabel("Name", { exact: true }).fill("Photo Sync");
  await dialog.getByLabel("Description").fill("Keeps your phone's photos in a folder");
  await dialog.getByLabel("Publisher", { exact: true }).fill("Example Ltd");
  await dialog.getByLabel("Access to your files and folders").selectOption("readwrite");
  await dialog.getByLabel("Keep this access while you are away: it does not expire until you revoke it").check();
  await dialog.getByLabel("Callback URIs").fill(callback);
  expect(await seriousViolations(page), "new application dialog").toEqual([]);
  await dialog.getByRole("button", { name: "Create" }).click();
  const secretDialog = page.getByRole("dialog", { name: "Credentials of Photo Sync" });
  await expect(secretDialog.getByText("it is shown this once")).toBeVisible();
  const clientId = await secretDialog.getByLabel("Client id").inputValue();
  const clientSecret = await secretDialog.getByLabel("Client secret").inputValue();
  expect(clientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  await screenshot(page, "oauth2-secret-once");
  await secretDialog.getByRole("button", { name: "Close" }).first().click();
  await expect(page.getByRole("row", { name: /Photo Sync/ })).toBeVisible();
  expect(await seriousViolations(page), "applications console").toEqual([]);
  await screenshot(page, "oauth2-console");
  return { clientId, clientSecret };
}

test("an application is registered, authorised with PKCE on the consent screen, used, and revoked from the account page", async ({ page, browser, request }) => {
  const callback = await callbackServer();
  try {
    const { clientId, clientSecret } = await registerInConsole(page, callback.url);
    const config = await client.discovery(new URL(SERVER), clientId, clientSecret, undefined, { execute: [client.allowInsecureRequests], algorithm: "oauth2" });
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const authorizationUrl = client.buildAuthorizationUrl(config, {
      redirect_uri: callback.url,
      scope: "files.readwrite offline",
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
    });

    // A person who is not signed in: the sign-in page first, then the consent screen.
    const person = await createUser(request, { firstname: "Ada", lastname: "Lovelace" });
    const context = await browser.newContext({ locale: "en-US" });
    const user = await context.newPage();
    await user.goto(authorizationUrl.toString());
    await expect(user).toHaveURL(/\/login\?next=/);
    await user.getByLabel("Login", { exact: true }).fill(person.login);
    await user.getByLabel("Password", { exact: true }).fill(person.password);
    await user.getByRole("button", { name: "Sign in" }).click();
    await expect(user.getByRole("heading", { name: "Allow Photo Sync to use your account?" })).toBeVisible();
    await expect(user.getByText("Published by Example Ltd")).toBeVisible();
    await expect(user.getByText("Signed in as Ada Lovelace")).toBeVisible();
    await expect(user.getByRole("listitem").filter({ hasText: "See and change your files and folders" })).toBeVisible();
    await expect(user.getByRole("listitem").filter({ hasText: "it does not expire until you revoke it" })).toBeVisible();
    await screenshot(user, "oauth2-consent");
    expect(await seriousViolations(user), "consent screen").toEqual([]);

    await user.getByRole("button", { name: "Allow" }).click();
    await user.waitForURL((url) => url.href.startsWith(callback.url));
    const back = new URL(user.url());
    expect(back.searchParams.get("state")).toBe(state);
    const tokens = await client.authorizationCodeGrant(config, back, { pkceCodeVerifier: verifier, expectedState: state });
    expect(tokens.scope).toBe("files.readwrite offline");
    const folders = await request.get("/api/folders", { headers: { Authorization: `Bearer ${tokens.access_token}` } });
    expect(folders.status()).toBe(200);

    // The administrator sees who authorised the application.
    await page.getByRole("button", { name: "Authorisations of Photo Sync" }).click();
    const grants = page.getByRole("dialog", { name: "Authorisations of Photo Sync" });
    await expect(grants.getByRole("row", { name: /Ada Lovelace/ })).toContainText("files.readwrite offline");
    await screenshot(page, "oauth2-console-authorisations");
    await grants.getByRole("button", { name: "Close" }).first().click();

    // The person sees the application on the account page and revokes it.
    await user.goto("/account");
    const card = user.getByRole("region", { name: "Authorised applications" });
    await expect(card.getByText("Photo Sync")).toBeVisible();
    await expect(card.getByText("See and change your files and folders")).toBeVisible();
    await card.scrollIntoViewIfNeeded();
    await screenshot(user, "oauth2-account-applications", { show: card });
    await card.getByRole("button", { name: "Revoke the access of Photo Sync" }).click();
    await expect(card.getByText("Photo Sync no longer has access to your account.")).toBeVisible();
    await expect(card.getByText("You have not authorised any application.")).toBeVisible();
    expect((await request.get("/api/folders", { headers: { Authorization: `Bearer ${tokens.access_token}` } })).status()).toBe(401);
    await context.close();

    // Reset the secret (shown once again, different), then delete the application, from the row's menu.
    await page.getByRole("button", { name: "Actions for Photo Sync" }).click();
    await page.getByRole("menuitem", { name: "Reset the secret" }).click();
    await page.getByRole("dialog", { name: "Reset the secret of Photo Sync?" }).getByRole("button", { name: "Reset the secret" }).click();
    const renewed = page.getByRole("dialog", { name: "Credentials of Photo Sync" });
    const newSecret = await renewed.getByLabel("Client secret").inputValue();
    expect(newSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newSecret).not.toBe(clientSecret);
    await renewed.getByRole("button", { name: "Close" }).first().click();
    await expect(client.clientCredentialsGrant(config)).rejects.toMatchObject({ error: "invalid_client" });
    await page.getByRole("button", { name: "Actions for Photo Sync" }).click();
    await page.getByRole("menuitem", { name: "Delete" }).click();
    await page.getByRole("dialog", { name: "Delete Photo Sync?" }).getByRole("button", { name: "Delete" }).click();
    await expect(page.getByRole("row", { name: /Photo Sync/ })).toHaveCount(0);
  } finally {
    await callback.close();
  }
});

test("the consent screen speaks French and answers from the keyboard; an unregistered return address is never followed", async ({ browser, request }) => {
  const callback = await callbackServer();
  try {
    const auth = await request.post("/api/auth", { data: { user: ADMIN.login, password: ADMIN.password } });
    const headers = { Authorization: `Bearer ${(await auth.json()).token}` };
    const created = await request.post("/api/oauth2/app", { headers, data: { name: "Agenda", editor: "Calendrier SA", type: 0, scope: "files.read annotations.read", callbacks_uris: [callback.url] } });
    expect(created.status()).toBe(201);
    const app = await created.json();
    const config = await client.discovery(new URL(SERVER), app.client_id, app.client_secret, undefined, { execute: [client.allowInsecureRequests], algorithm: "oauth2" });
    const verifier = client.randomPKCECodeVerifier();
    const params = { redirect_uri: callback.url, scope: "files.read annotations.read", code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256", state: "fr" };

    const person = await createUser(request, { language: "fr" });
    const context = await browser.newContext({ locale: "fr-FR" });
    const page = await context.newPage();
    // Signed out, the consent screen sends the person to the (French) sign-in page and back.
    await page.goto(client.buildAuthorizationUrl(config, params).toString());
    await page.getByLabel("Identifiant", { exact: true }).fill(person.login);
    await page.getByLabel("Mot de passe", { exact: true }).fill(person.password);
    await page.getByRole("button", { name: "Se connecter" }).click();
    await expect(page.getByRole("heading", { name: "Autoriser Agenda à utiliser votre compte ?" })).toBeVisible();
    await expect(page.getByText("Voir vos fichiers et dossiers")).toBeVisible();
    await expect(page.getByText("Voir vos commentaires sur les fichiers")).toBeVisible();
    await screenshot(page, "oauth2-consent-fr");
    // The keyboard reaches Refuser before Autoriser.
    const deny = page.getByRole("button", { name: "Refuser" });
    for (let i = 0; i < 10 && !(await deny.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
    await expect(deny).toBeFocused();
    await page.keyboard.press("Enter");
    await page.waitForURL((url) => url.href.startsWith(callback.url));
    expect(new URL(page.url()).searchParams.get("error")).toBe("access_denied");

    // A return address the application did not register: said on the page, never followed.
    await page.goto(client.buildAuthorizationUrl(config, { ...params, redirect_uri: "https://evil.example/cb" }).toString());
    await expect(page.getByRole("heading", { name: "Cette demande d'autorisation est inutilisable" })).toBeVisible();
    await expect(page.getByText("L'adresse de retour n'est pas l'une de celles que l'application a enregistrées")).toBeVisible();
    expect(new URL(page.url()).origin).toBe(SERVER);
    await screenshot(page, "oauth2-refused-redirect");
    await context.close();
    await request.delete("/api/auth", { headers });
  } finally {
    await callback.close();
  }
});
