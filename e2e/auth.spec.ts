import { expect, test } from "@playwright/test";
import sharp from "sharp";
import { ADMIN } from "./env";
import { createUser, screenshot, signIn, signInAsAdmin } from "./helpers";

test("an administrator signs in, edits the account in French, and signs out", async ({ page }) => {
  await signInAsAdmin(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Welcome, ${ADMIN.name}`);
  await screenshot(page, "home");

  await page.getByRole("button", { name: /User menu/ }).click();
  await page.getByRole("menuitem", { name: "Account" }).click();
  await expect(page).toHaveURL("/account");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Account");

  const profile = page.getByRole("region", { name: "Profile" });
  await profile.getByLabel("Organization").fill("Coffre QA");
  await profile.getByRole("button", { name: "Save" }).click();
  await expect(profile.getByRole("status")).toHaveText("Saved.");

  const picture = page.getByRole("region", { name: "Picture" });
  const png = await sharp({ create: { width: 96, height: 96, channels: 3, background: "#d9822b" } }).png().toBuffer();
  await picture.getByLabel("Choose a picture").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: png });
  await expect(picture.getByRole("status")).toHaveText("Picture updated.");
  await expect(picture.getByRole("img", { name: "Your picture" })).toBeVisible();
  await expect(page.getByRole("banner").locator("img")).toBeVisible();

  const language = page.getByRole("region", { name: "Language" });
  await language.getByLabel("Interface language").selectOption("fr");
  await language.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Compte");
  await expect(page.getByRole("region", { name: "Langue" }).getByRole("status")).toHaveText("Langue enregistrée.");
  await expect(page.getByRole("navigation").getByRole("link", { name: "Accueil" })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "fr");

  // The choice is the account's: a fresh load is rendered in French by the server.
  await page.reload();
  await expect(page).toHaveTitle("Compte · Coffre");
  await expect(page.getByRole("region", { name: "Profil" }).getByLabel("Organisation")).toHaveValue("Coffre QA");
  await screenshot(page, "account-in-french", { fullPage: true });

  await page.getByRole("region", { name: "Photo" }).getByRole("button", { name: "Supprimer" }).click();
  await expect(page.getByRole("region", { name: "Photo" }).getByRole("status")).toHaveText("Photo supprimée.");
  await expect(page.getByRole("banner").locator("img")).toHaveCount(0);

  const langue = page.getByRole("region", { name: "Langue" });
  await langue.getByLabel("Langue de l’interface").selectOption("auto");
  await langue.getByRole("button", { name: "Enregistrer" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Account");

  await page.getByRole("button", { name: /User menu/ }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page).toHaveURL("/login");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign in");
  await page.goto("/account");
  await expect(page).toHaveURL("/login");
  await screenshot(page, "signed-out");
});

test("a wrong password is refused with a clear message", async ({ page }) => {
  await signIn(page, "not-the-password");
  await expect(page.getByRole("main").getByRole("alert")).toHaveText("Wrong login or password.");
  await expect(page).toHaveURL("/login");
  await expect(page.getByLabel("Password", { exact: true })).toBeVisible();
  await screenshot(page, "sign-in-wrong-password");
});

test("an inactive account is told so at sign-in", async ({ page, playwright, baseURL }) => {
  const api = await playwright.request.newContext({ baseURL });
  const user = await createUser(api, { active: false });
  await api.dispose();
  await signIn(page, user.password, user.login);
  await expect(page.getByRole("main").getByRole("alert")).toHaveText("This account is inactive. Contact your administrator.");
  await screenshot(page, "sign-in-inactive-account");
});

test("a user changes their password, with clear refusals on the way", async ({ page, playwright, baseURL }) => {
  const api = await playwright.request.newContext({ baseURL });
  const user = await createUser(api);
  await api.dispose();
  await signIn(page, user.password, user.login);
  await expect(page.getByTestId("user-name")).toHaveText("Grace Hopper");
  await page.getByRole("navigation").getByRole("link", { name: "Account" }).click();

  const form = page.getByRole("region", { name: "Password", exact: true });
  const fill = async (current: string, next: string, confirm = next) => {
    await form.getByLabel("Current password").fill(current);
    await form.getByLabel("New password", { exact: true }).fill(next);
    await form.getByLabel("Confirm the new password").fill(confirm);
    await form.getByRole("button", { name: "Change the password" }).click();
  };
  await fill(user.password, "Fresh-pass-42", "Fresh-pass-43");
  await expect(form.getByText("The two passwords do not match.")).toBeVisible();
  await fill(user.password, "short");
  await expect(form.getByText(/This password is too weak/)).toBeVisible();
  await fill("not-my-password", "Fresh-pass-42");
  await expect(form.getByText("The current password is wrong.")).toBeVisible();
  await fill(user.password, "Fresh-pass-42");
  await expect(form.getByRole("status")).toHaveText("Your password has been changed.");
  await expect(form.getByLabel("Current password")).toHaveValue("");
  await screenshot(page, "password-changed", { show: form });

  await page.getByRole("button", { name: /User menu/ }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page).toHaveURL("/login");
  await signIn(page, "Fresh-pass-42", user.login);
  await expect(page).toHaveURL("/");
});

test("a session revoked on the server signs the browser out", async ({ page, baseURL }) => {
  await signInAsAdmin(page);
  await page.goto("/account");
  // Another tab (here, the API with the same cookie) revokes the session.
  const revoked = await page.request.delete("/api/auth", { headers: { Origin: baseURL! } });
  expect(revoked.status()).toBe(204);

  // The next client call gets a 401 and the page moves to the sign-in screen. A background refresh
  // may meet the 401 before the click does, and the page is gone by then: either way, it moves.
  await page
    .getByRole("region", { name: "Profile" })
    .getByRole("button", { name: "Save" })
    .click({ timeout: 5_000 })
    .catch(() => undefined);
  await expect(page).toHaveURL(/\/login\?expired=1/);
  await expect(page.getByRole("main").getByRole("status")).toHaveText("Your session has ended. Please sign in again.");

  // A server render with the stale cookie lands there too.
  await page.goto("/");
  await expect(page).toHaveURL("/login?expired=1");
  await screenshot(page, "session-ended");
});

test("cookie-authenticated changes from another origin are refused", async ({ page }) => {
  await signInAsAdmin(page);
  const response = await page.request.put("/api/account", { headers: { Origin: "https://evil.example" }, data: { organization: "x" } });
  expect(response.status()).toBe(403);
  expect(await response.json()).toMatchObject({ code: "forbidden" });
});

test("the forgot-password and reset-password screens explain what happened", async ({ page }) => {
  await page.goto("/login");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page).toHaveURL("/login/forgot-password");
  await page.getByLabel("Login or email").fill("nobody-by-this-name");
  await page.getByRole("button", { name: "Send the link" }).click();
  // The same answer whether the account exists or not (issue 11, finding 9).
  await expect(page.getByRole("main").getByRole("status")).toContainText("If this login or address belongs to an account");

  await page.goto("/reset-password/not-a-real-token");
  await page.getByLabel("New password", { exact: true }).fill("Another-pass-42");
  await page.getByLabel("Confirm the new password").fill("Another-pass-42");
  await page.getByRole("button", { name: "Set the password" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toHaveText("This link is invalid, has expired or has already been used.");
  await expect(page.getByRole("link", { name: "Ask for a new link" })).toBeVisible();
  await screenshot(page, "reset-password-invalid-link");
});

test("the login page follows the browser's language", async ({ browser }) => {
  const context = await browser.newContext({ locale: "de-DE" });
  const page = await context.newPage();
  await page.goto("/login");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Anmelden");
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await screenshot(page, "sign-in-in-german");
  await context.close();
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test("the signed-in pages fit a 375 px screen", async ({ page }) => {
    await signIn(page);
    await expect(page).toHaveURL("/");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Welcome, ${ADMIN.name}`);
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await screenshot(page, "home-on-a-phone", { fullPage: true });

    await page.getByRole("navigation").getByRole("link", { name: "Account" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Account");
    expect(await overflow()).toBeLessThanOrEqual(0);
    await screenshot(page, "account-on-a-phone", { fullPage: true });
  });
});
