import { expect, test, type Page } from "@playwright/test";
import { adminApi, screenshot, signInAsAdmin } from "./helpers";
import { receivedMails } from "./mailbox";

const suffix = () => Math.random().toString(36).slice(2, 8);

async function openNewTemplate(page: Page) {
  await page.goto("/admin/mail");
  await page.getByRole("button", { name: "Alert templates" }).click();
  await page.getByRole("button", { name: "New template" }).click();
  const dialog = page.getByRole("dialog", { name: "New template" });
  await expect(dialog).toBeVisible();
  return dialog;
}

test("the template editor names a wrong placeholder, inserts allowed ones and previews with sample values", async ({ page }) => {
  await signInAsAdmin(page);
  const dialog = await openNewTemplate(page);
  const subject = `Weekly ${suffix()} in {{folder}}`;
  await dialog.getByLabel("Subject").fill(subject);
  await dialog.getByLabel("Text", { exact: true }).fill("Hello {{user}},\n\n");

  // The server's preview refuses it, naming the placeholder; saving does too.
  await expect(dialog.getByTestId("template-problem")).toContainText("{{user}}");
  await expect(dialog.getByTestId("template-problem")).toContainText("Text");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog.getByRole("alert").filter({ hasText: "Unknown placeholder {{user}}" }).first()).toBeVisible();
  await expect(dialog).toBeVisible();

  // Allowed placeholders are inserted where the cursor is.
  const text = dialog.getByLabel("Text", { exact: true });
  await text.fill("Hello ");
  await text.press("End");
  await dialog.getByRole("button", { name: "Insert {{recipient}}" }).click();
  await expect(text).toHaveValue("Hello {{recipient}}");
  await text.press("End");
  await text.pressSequentially(",\n\nChanges:\n");
  await dialog.getByRole("button", { name: "Insert {{changes}}" }).click();
  await expect(text).toHaveValue("Hello {{recipient}},\n\nChanges:\n{{changes}}");

  // The preview is the server's rendering with sample values, in a sandboxed frame.
  await expect(dialog.getByTestId("template-problem")).toHaveCount(0);
  await expect(dialog.getByTestId("preview-subject")).toContainText("in Projects");
  const frame = dialog.getByTestId("preview-frame");
  await expect(frame).toHaveAttribute("sandbox", "");
  // The frame's document is replaced at each new rendering: read its text rather than its layout.
  const rendered = page.frameLocator("[data-testid=preview-frame]").locator("body");
  await expect(rendered).toContainText("Hello Alex Martin,");
  await expect(rendered).toContainText('New file "Budget 2027.xlsx" in Projects');
  // Fixing the text clears the refusal of the last save.
  await expect(dialog.getByText("Unknown placeholder {{user}}")).toHaveCount(0);
  // The frame paints its new document a moment after the text is in it.
  await page.waitForTimeout(500);
  await screenshot(page, "console-mail-template");

  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("cell", { name: subject, exact: true })).toBeVisible();
});

test("the SMTP card shows the settings in force and their source, and sends a test mail through them", async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto("/admin/config");
  const card = page.getByRole("region", { name: "Outgoing mail (SMTP)" });
  const inForce = card.getByTestId("smtp-in-force");
  await expect(inForce).toContainText("SMTP_URL");
  await expect(inForce.getByRole("definition").filter({ hasText: "127.0.0.1" })).toBeVisible();
  await expect(inForce.getByTestId("smtp-source").first()).toHaveText("Environment (SMTP_URL)");
  await expect(inForce).toContainText("Default");
  // The console's settings are not in force while SMTP_URL is: the override is offered.
  await expect(card.getByLabel(/Use these settings instead of SMTP_URL/)).not.toBeChecked();

  const to = `smtp-card-${suffix()}@example.test`;
  await card.getByLabel("Send the test to").fill(to);
  await card.getByRole("button", { name: "Test the settings in force" }).click();
  await expect(card.getByRole("status").filter({ hasText: "The server accepted the test mail" })).toBeVisible();
  await expect.poll(() => receivedMails().some((m) => m.to.includes(to)), { timeout: 20_000 }).toBe(true);
  await screenshot(page, "console-smtp-card", { show: card });
});

test("connection hours are shown in the platform's time zone with its GMT offset", async ({ page, request }) => {
  const api = await adminApi(request);
  const made = await request.post("/api/user", { headers: api.headers, data: { login: `tz_${suffix()}`, password: "Journey-pass-42", firstname: "Ada", lastname: "Zone" } });
  expect(made.status()).toBe(201);
  const user = (await made.json()) as { id: string };
  await signInAsAdmin(page);
  await page.goto("/admin/config");
  const general = page.getByRole("region", { name: "General" });
  await general.getByLabel("Platform time zone").fill("Mars/Olympus");
  await expect(general.getByText(/Not a time zone this browser knows/)).toBeVisible();
  await general.getByLabel("Platform time zone").fill("Europe/Paris");
  await expect(general.getByText(/Europe\/Paris \(GMT\+0[12]:00\)/)).toBeVisible();
  await general.getByRole("button", { name: "Save" }).click();
  await expect(general.getByText("Saved")).toBeVisible();
  try {
    await page.goto(`/admin/options?target=${user.id}`);
    await expect(page.getByRole("group", { name: /Hours: Europe\/Paris \(GMT\+0[12]:00\)/ })).toBeVisible();
    await expect(page.getByTestId("hours-zone")).toContainText("Europe/Paris");
    await screenshot(page, "console-options-time-zone");
  } finally {
    expect((await request.put("/api/config", { headers: api.headers, data: { time_zone: "UTC" } })).status()).toBe(200);
  }
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the template editor and the SMTP card fit 390 px", async ({ page }) => {
    await signInAsAdmin(page);
    const dialog = await openNewTemplate(page);
    await dialog.getByLabel("Subject").fill("News in {{folder}}");
    await dialog.getByLabel("Text", { exact: true }).fill("Hello {{recipient}},\n\n{{changes}}");
    await expect(dialog.getByTestId("preview-subject")).toContainText("News in Projects");
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await screenshot(page, "console-mail-template-phone");
    await dialog.getByRole("button", { name: "Cancel" }).click();

    await page.goto("/admin/config");
    const card = page.getByRole("region", { name: "Outgoing mail (SMTP)" });
    await expect(card.getByTestId("smtp-in-force")).toContainText("Environment (SMTP_URL)");
    await screenshot(page, "console-smtp-card-phone", { show: card.getByTestId("smtp-in-force") });
  });
});
