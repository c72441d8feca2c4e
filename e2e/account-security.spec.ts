import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { createUser, screenshot, signIn } from "./helpers";

// Issue 29, item 9 (api.md, "Account security"): an account with an authenticator app uses
// WebDAV through an app password made on its account page, sees it among its sessions, revokes it.

const totp = (secret: string) => new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate();
/** axe-core's serious and critical findings (as in accessibility.spec.ts). */
async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}
const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString("base64")}`;

test("an account with an authenticator app uses WebDAV with an app password, sees it in its sessions, revokes it", async ({ page, playwright, baseURL }) => {
  const api = await playwright.request.newContext({ baseURL });
  const user = await createUser(api);
  await signIn(page, user.password, user.login);
  await expect(page).toHaveURL("/");

  // The authenticator app, set up through the API (mfa.spec.ts walks the screens).
  const { token } = await (await api.post("/api/auth", { data: { user: user.login, password: user.password } })).json();
  const headers = { Authorization: `Bearer ${token}` };
  const start = await (await api.post("/api/account/mfa/otp", { headers, data: { password: user.password } })).json();
  expect((await api.put("/api/account/mfa/otp", { headers, data: { code: totp(start.secret) } })).status()).toBe(200);
  const propfind = (password: string) => api.fetch("/dav/", { method: "PROPFIND", headers: { depth: "1", authorization: basic(user.login, password), "user-agent": "rclone/v1.68.1" } });
  // Its password alone no longer opens WebDAV: that is what app passwords are for.
  expect((await propfind(user.password)).status()).toBe(401);

  await page.goto("/account");
  const webdav = page.getByRole("region", { name: "WebDAV" });
  await expect(webdav.getByRole("textbox", { name: "WebDAV address" })).toHaveValue(`${baseURL}/dav/`);
  await expect(webdav.getByRole("button", { name: "Copy: WebDAV address" })).toBeVisible();
  await expect(webdav.getByRole("textbox", { name: "rclone command" })).toHaveValue(new RegExp(`url=${baseURL}/dav/ vendor=other user='${user.login}'`));

  // Create one, keyboard only: the name, Enter, the password in the dialog, Enter.
  const apps = page.getByRole("region", { name: "App passwords" });
  await expect(apps.getByText("No app password yet.")).toBeVisible();
  await apps.getByLabel("Name (the device or program)").fill("Laptop rclone");
  await page.keyboard.press("Enter");
  const confirm = page.getByRole("dialog", { name: "Create an app password" });
  await expect(confirm.getByLabel("Password", { exact: true })).toBeFocused();
  await page.keyboard.type("not-the-password");
  await page.keyboard.press("Enter");
  await expect(confirm.getByText("This password or code is wrong.")).toBeVisible();
  await confirm.getByLabel("Password", { exact: true }).fill(user.password);
  await page.keyboard.press("Enter");
  const shown = apps.getByTestId("app-password-created");
  await expect(shown.getByText("Copy this password now: it will not be shown again.")).toBeVisible();
  const password = await shown.getByRole("textbox", { name: "App password" }).inputValue();
  expect(password).toMatch(/^[a-z2-9]{6}(-[a-z2-9]{6}){4}$/);
  await screenshot(page, "account-app-password-created", { show: apps });
  await shown.getByRole("button", { name: "Done" }).click();
  await expect(apps.getByTestId("app-passwords").getByText("Laptop rclone")).toBeVisible();

  // WebDAV over HTTP with it.
  const listing = await propfind(password);
  expect(listing.status()).toBe(207);
  expect(await listing.text()).toContain("<D:href>/dav/Private/</D:href>");

  // Among the sessions: this browser ("this device"), and the app password used by rclone.
  await page.reload();
  const sessions = page.getByRole("region", { name: "Sessions" });
  const list = sessions.getByTestId("account-sessions");
  await expect(list.getByRole("listitem").filter({ hasText: "this device" })).toHaveCount(1);
  const appSession = list.getByRole("listitem").filter({ hasText: "Laptop rclone" });
  await expect(appSession).toContainText("App password");
  await expect(appSession).toContainText("last seen");
  await screenshot(page, "account-sessions", { show: sessions });
  expect(await seriousViolations(page), "account page with sessions and app passwords").toEqual([]);

  // Revoke it (keyboard): WebDAV refuses it at once.
  const revoke = apps.getByRole("button", { name: "Revoke the app password Laptop rclone" });
  await revoke.focus();
  await page.keyboard.press("Enter");
  await expect(apps.getByText("Laptop rclone has been revoked.")).toBeVisible();
  await expect(list.getByRole("listitem").filter({ hasText: "Laptop rclone" })).toHaveCount(0);
  expect((await propfind(password)).status()).toBe(401);

  // The API session opened above ends from the list too.
  await sessions.getByRole("button", { name: "End all other sessions" }).click();
  await page.getByRole("dialog", { name: "End all other sessions" }).getByRole("button", { name: "End all other sessions" }).click();
  await expect(sessions.getByText("All other sessions have ended.")).toBeVisible();
  await expect(list.getByRole("listitem")).toHaveCount(1);
  expect((await api.get("/api/account", { headers })).status()).toBe(401);

  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, "account-security-phone", { show: apps });
  await api.dispose();
});
