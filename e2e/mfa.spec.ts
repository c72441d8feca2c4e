import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page, type PlaywrightWorkerArgs } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { E2E_PORT } from "./env";
import { adminApi, createUser, screenshot } from "./helpers";

// Security keys need a host name: browsers refuse an IP address as a WebAuthn relying party, so
// these journeys run on localhost (the server takes the relying party from the request's host).
const ORIGIN = `http://localhost:${E2E_PORT}`;

const totp = (secret: string, steps = 0) =>
  new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + steps * 30_000 });

/** axe-core's serious and critical findings (as in accessibility.spec.ts). */
async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}

async function signInWithPassword(page: Page, login: string, password: string) {
  await page.goto(`${ORIGIN}/login`);
  await page.getByLabel("Login", { exact: true }).fill(login);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

async function signOut(page: Page) {
  await page.getByRole("button", { name: /User menu/ }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page).toHaveURL(`${ORIGIN}/login`);
}

/** A new user, signed in through the sign-in page, on their account page. */
async function openAccountOfNewUser(page: Page, playwright: PlaywrightWorkerArgs["playwright"], baseURL: string | undefined, before?: () => Promise<unknown>) {
  const api = await playwright.request.newContext({ baseURL });
  const user = await createUser(api);
  await api.dispose();
  await before?.();
  await signInWithPassword(page, user.login, user.password);
  await expect(page).toHaveURL(`${ORIGIN}/`);
  await page.goto(`${ORIGIN}/account`);
  return user;
}

/** A software security key in this tab (Chromium's virtual authenticator over CDP). */
async function addVirtualKey(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "usb", hasResidentKey: false, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return cdp;
}

test("a user sets up an authenticator app in the account page, then signs in with a code", async ({ page, playwright, baseURL }) => {
  const user = await openAccountOfNewUser(page, playwright, baseURL);
  const section = page.getByRole("region", { name: "Two-step verification" });
  await section.getByRole("button", { name: "Set up an app" }).click();
  // Every change of a second factor asks for the password again (api.md, "Account security").
  const confirm = page.getByRole("dialog", { name: "Set up an authenticator app" });
  await confirm.getByLabel("Password", { exact: true }).fill("not-the-password");
  await confirm.getByRole("button", { name: "Continue" }).click();
  await expect(confirm.getByText("This password or code is wrong.")).toBeVisible();
  await confirm.getByLabel("Password", { exact: true }).fill(user.password);
  await confirm.getByRole("button", { name: "Continue" }).click();
  await expect(section.getByRole("img", { name: "QR code to scan with an authenticator app" })).toBeVisible();
  const secret = (await section.getByTestId("otp-secret").textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  expect(await seriousViolations(page), "account, app set-up").toEqual([]);

  // A wrong code first: refused in place.
  await section.getByLabel("Code from your authenticator app").fill(totp(secret, 10));
  await section.getByRole("button", { name: "Turn on" }).click();
  await expect(section.getByText("This code is wrong, expired or already used.")).toBeVisible();
  await section.getByLabel("Code from your authenticator app").fill(totp(secret));
  await section.getByRole("button", { name: "Turn on" }).click();

  const codes = section.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
  await expect(codes).toHaveCount(10);
  await expect(section.getByText("On", { exact: true })).toBeVisible();
  await screenshot(page, "mfa-account-recovery-codes", { show: section });
  await section.getByRole("button", { name: "I have saved them" }).click();
  await expect(section.getByText("10 left")).toBeVisible();

  await signOut(page);
  await signInWithPassword(page, user.login, user.password);
  const step = page.getByTestId("mfa-step");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Two-step verification");
  // The code of the next period: the one used to turn the app on cannot serve twice.
  expect(await seriousViolations(page), "sign-in second step").toEqual([]);
  await step.getByLabel("Code from your authenticator app").fill(totp(secret, 1));
  await screenshot(page, "mfa-sign-in-code");
  await step.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(`${ORIGIN}/`);
  await expect(page.getByTestId("user-name")).toHaveText("Grace Hopper");
});

test("a user registers a security key and signs in with it", async ({ page, playwright, baseURL }) => {
  const user = await openAccountOfNewUser(page, playwright, baseURL, () => addVirtualKey(page));
  const section = page.getByRole("region", { name: "Two-step verification" });
  await section.getByRole("button", { name: "Add a security key" }).click();
  await section.getByLabel("Name of the key").fill("Blue key");
  await section.getByRole("button", { name: "Continue" }).click();
  const confirm = page.getByRole("dialog", { name: "Add the security key “Blue key”" });
  await confirm.getByLabel("Password", { exact: true }).fill(user.password);
  await confirm.getByRole("button", { name: "Register the key" }).click();
  await expect(section.getByRole("list", { name: "Security keys" }).getByText("Blue key")).toBeVisible();
  await expect(section.getByRole("list", { name: "Recovery codes" }).getByRole("listitem")).toHaveCount(10);
  await section.getByRole("button", { name: "I have saved them" }).click();
  await screenshot(page, "mfa-account-security-key", { show: section });

  await signOut(page);
  await signInWithPassword(page, user.login, user.password);
  const step = page.getByTestId("mfa-step");
  await step.getByRole("button", { name: "Use my security key" }).click();
  await expect(page).toHaveURL(`${ORIGIN}/`);
  await expect(page.getByTestId("user-name")).toHaveText("Grace Hopper");

  // Keyboard only: the key is removed from the account page with Tab and Enter, the password typed in the dialog.
  await page.goto(`${ORIGIN}/account`);
  const remove = section.getByRole("button", { name: "Remove the key Blue key" });
  await remove.focus();
  await page.keyboard.press("Enter");
  const removal = page.getByRole("dialog", { name: "Remove the security key “Blue key”" });
  await expect(removal.getByLabel("Password", { exact: true })).toBeFocused();
  await page.keyboard.type(user.password);
  await page.keyboard.press("Enter");
  await expect(section.getByRole("list", { name: "Security keys" })).toHaveCount(0);
});

test("an account an administrator requires a second factor of is led to set one up first", async ({ page, playwright, baseURL }) => {
  const api = await playwright.request.newContext({ baseURL });
  const user = await createUser(api);
  const { headers, end } = await adminApi(api);
  const users = await (await api.get(`/api/users?keyword=${user.login}`, { headers })).json();
  const id = users.objects[0].id;
  expect((await api.put(`/api/user/${id}`, { headers, data: { mfa_required: true } })).status()).toBe(200);
  await end();
  await api.dispose();

  await signInWithPassword(page, user.login, user.password);
  await expect(page).toHaveURL(`${ORIGIN}/login/enrol`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Set up two-step verification");
  const enrol = page.getByTestId("mfa-enrol");
  await expect(enrol.getByRole("button", { name: "Continue" })).toBeDisabled();
  // Elsewhere the app sends the person back here.
  await page.goto(`${ORIGIN}/files`);
  await expect(page).toHaveURL(`${ORIGIN}/login/enrol`);

  await enrol.getByRole("button", { name: "Set up an app" }).click();
  const confirm = page.getByRole("dialog", { name: "Set up an authenticator app" });
  await confirm.getByLabel("Password", { exact: true }).fill(user.password);
  await confirm.getByRole("button", { name: "Continue" }).click();
  const secret = (await enrol.getByTestId("otp-secret").textContent())!.trim();
  await enrol.getByLabel("Code from your authenticator app").fill(totp(secret));
  await enrol.getByRole("button", { name: "Turn on" }).click();
  await expect(enrol.getByRole("list", { name: "Recovery codes" }).getByRole("listitem")).toHaveCount(10);
  await screenshot(page, "mfa-forced-enrolment", { fullPage: true });
  await enrol.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(`${ORIGIN}/`);
  await expect(page.getByTestId("user-name")).toHaveText("Grace Hopper");
});

test("a new email address is confirmed with the password in a dialog", async ({ page, playwright, baseURL }) => {
  const user = await openAccountOfNewUser(page, playwright, baseURL);
  const profile = page.getByRole("region", { name: "Profile" });
  await profile.getByLabel("Email", { exact: true }).fill("grace.new@example.test");
  await profile.getByRole("button", { name: "Save" }).click();
  const confirm = page.getByRole("dialog", { name: "Change your email address to grace.new@example.test" });
  await confirm.getByLabel("Password", { exact: true }).fill("not-the-password");
  await confirm.getByRole("button", { name: "Save" }).click();
  await expect(confirm.getByText("This password or code is wrong.")).toBeVisible();
  await confirm.getByLabel("Password", { exact: true }).fill(user.password);
  await confirm.getByRole("button", { name: "Save" }).click();
  await expect(confirm).toHaveCount(0);
  await expect(profile.getByRole("status")).toHaveText("Saved.");
  await page.reload();
  await expect(page.getByRole("region", { name: "Profile" }).getByLabel("Email", { exact: true })).toHaveValue("grace.new@example.test");
});
