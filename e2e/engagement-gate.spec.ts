import { expect, test, type Page } from "@playwright/test";
import { newestFirst, screenshot, seedFolder, signInAsAdmin } from "./helpers";

const suffix = () => Math.random().toString(36).slice(2, 7);
const row = (page: Page, name: string) => page.getByRole("row").filter({ has: page.getByText(name, { exact: true }) });

const AGREEMENT = "These documents are confidential.\nDo not forward them.\n\n<b>Shown as text, never as HTML</b>";

test("the owner asks visitors for an email and an agreement; a visitor passes the gate and sees the documents", async ({ page, browser, request }) => {
  const name = `Proposal ${suffix()}`;
  await seedFolder(request, name, ["proposal.txt", "pricing.txt"]);
  await signInAsAdmin(page);
  await page.goto("/files");
  await newestFirst(page);
  // The row's own menu (a click on its ⋯ below the fold once scrolled the list to its top and was lost).
  await expect(row(page, name)).toBeVisible();
  await row(page, name).getByRole("button", { name: `More actions for ${name}` }).click();
  await page.getByRole("menuitem", { name: "Share by link" }).click();
  const dialog = page.getByRole("dialog", { name: `Share “${name}”` });
  const gate = dialog.getByTestId("share-gate-fields");
  await gate.getByLabel("Ask for their email before they see anything").check();
  await gate.getByLabel("Never these addresses or @domains").fill("@rival.example");
  await gate.getByLabel("Agreement to accept before viewing (optional)").fill(AGREEMENT);
  await gate.getByLabel("Mail me at each new visitor").check();
  await screenshot(page, "engagement-gate-dialog");
  await dialog.getByRole("button", { name: "Create the link" }).click();
  const url = await dialog.getByTestId("link-url").first().inputValue();

  for (const width of [1280, 390]) {
    const context = await browser.newContext({ viewport: { width, height: width === 390 ? 844 : 800 } });
    const visitor = await context.newPage();
    await visitor.goto(new URL(url).pathname);
    const form = visitor.getByTestId("visitor-gate");
    await expect(form).toBeVisible();
    await expect(visitor.getByTestId("shared-item")).toHaveCount(0);
    await expect(form.getByTestId("gate-agreement")).toHaveText(AGREEMENT, { useInnerText: true });
    await expect(form).toContainText("Your views of these documents are recorded for the link's owner.");

    await form.getByLabel("Your email address").fill("spy@rival.example");
    await form.getByLabel("I have read and accept this agreement").check();
    await form.getByRole("button", { name: "Continue" }).click();
    await expect(visitor.getByRole("main").getByRole("alert")).toHaveText("This address may not open this link.");
    await screenshot(visitor, `engagement-gate-denied-${width}`, { fullPage: true });

    await form.getByLabel("Your email address").fill(`reader-${width}@client.example`);
    await form.getByRole("button", { name: "Continue" }).click();
    await visitor.getByRole("button", { name: new RegExp(name) }).click();
    await expect(visitor.getByTestId("shared-item")).toHaveCount(2);
    await screenshot(visitor, `engagement-gate-passed-${width}`, { fullPage: true });
    await context.close();
  }
});
