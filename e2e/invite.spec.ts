import { expect, test } from "@playwright/test";
import { ADMIN } from "./env";
import { adminApi, screenshot, seedFolder, signIn } from "./helpers";

const suffix = () => Math.random().toString(36).slice(2, 7);

test("an invited person opens the mailed link, creates an account, signs in and finds the folder shared with them", async ({ page, playwright, baseURL }) => {
  const api = await playwright.request.newContext({ baseURL });
  const folder = await seedFolder(api, `Invited ${suffix()}`, ["brief.txt"]);
  const { headers, end } = await adminApi(api);
  const email = `guest_${suffix()}@example.test`;
  const created = await api.post("/api/invite", { headers, data: { target: email, folder: folder.id, rights: 1 | 2 } });
  expect(created.status()).toBe(201);
  const { key } = await created.json();
  await end();
  await api.dispose();

  await page.goto(`/invite/${key}`);
  await expect(page).toHaveTitle("Invitation · Coffre");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Create your account");
  await expect(page.getByText(`${ADMIN.name} invites you to the folder “${folder.name}”.`)).toBeVisible();
  await expect(page.getByLabel("Email address")).toHaveValue(email);

  // Keyboard only: the login field has the focus, Tab goes through the form in order.
  const login = `guest_${suffix()}`;
  await expect(page.getByLabel("Login")).toBeFocused();
  await page.keyboard.type(login);
  await page.keyboard.press("Tab");
  await page.keyboard.type("Grace");
  await page.keyboard.press("Tab");
  await page.keyboard.type("Hopper");
  await page.getByLabel("Password", { exact: true }).fill("Invited-pass-42");
  await page.getByLabel("Confirm the password").fill("Invited-pass-42");
  await screenshot(page, "invitation-form", { fullPage: true });
  await page.getByLabel("Confirm the password").fill("Invited-pass-4");
  await page.getByRole("button", { name: "Create my account" }).click();
  await expect(page.getByText("The two passwords do not match.")).toBeVisible();
  await page.getByLabel("Confirm the password").fill("Invited-pass-42");
  await page.getByLabel("Confirm the password").press("Enter");

  await expect(page).toHaveURL("/login?invited=1");
  await expect(page.getByRole("main").getByRole("status")).toHaveText("Your account is ready. Sign in with your new login and password.");
  await signIn(page, "Invited-pass-42", login);
  await expect(page).toHaveURL("/");
  await page.goto("/files/shared");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Shared with me");
  await expect(page.getByRole("link", { name: folder.name, exact: true })).toBeVisible();
  await screenshot(page, "invitation-completed");

  // The link works once.
  await page.goto(`/invite/${key}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Invitation unavailable");
  await expect(page.getByRole("main").getByRole("status")).toHaveText("This invitation has already been used. Sign in with the account created from it.");
});

test.describe("in French", () => {
  test.use({ locale: "fr-FR" });

  test("an unknown invitation link says so in the browser's language", async ({ page }) => {
    await page.goto(`/invite/${"x".repeat(32)}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Invitation indisponible");
    await expect(page.getByRole("main").getByRole("alert")).toHaveText("Cette invitation n’existe pas ou a été retirée.");
    await expect(page.getByRole("link", { name: "Aller à la connexion" })).toBeVisible();
    await screenshot(page, "invitation-unknown-in-french");
  });
});
