import { expect, test, type Page } from "@playwright/test";
import { newestFirst, screenshot, seedFolder, signInAsAdmin } from "./helpers";

const suffix = () => Math.random().toString(36).slice(2, 7);
const row = (page: Page, name: string) => page.getByRole("row").filter({ has: page.getByText(name, { exact: true }) });

// Issue 29: a drop link that requires the depositor's name and email, and the owner who sees who sent what.
test("a drop link asks who deposits: the visitor gives a name and email, the owner sees the files under that name", async ({ page, browser, request }) => {
  const name = `Candidates ${suffix()}`;
  await seedFolder(request, name, []);
  await signInAsAdmin(page);
  await page.goto("/files");
  await newestFirst(page);
  await row(page, name).click();
  await page.getByRole("toolbar", { name: "Actions" }).getByRole("button", { name: "Drop link" }).click();
  const dialog = page.getByRole("dialog", { name: `Drop link for “${name}”` });
  await dialog.getByLabel("Name shown to visitors").fill("Candidates 2026");
  await dialog.getByLabel("Ask who deposits").selectOption("required");
  await dialog.getByRole("button", { name: "Create the drop link" }).click();
  const url = await dialog.getByTestId("link-url").first().inputValue();
  await expect(dialog.getByTestId("drop-row").first()).toContainText("Name and email, required");

  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(new URL(url).pathname);
  await expect(visitor.getByRole("heading", { name: "Candidates 2026" })).toBeVisible();
  // The file input is a button named the same: the visible one is the button holding the text.
  const pick = visitor.getByText("Choose files", { exact: true });
  // Nothing can be sent before the name and a valid email are given.
  await expect(pick).toBeDisabled();
  await expect(visitor.getByText("Enter your name and a valid email before choosing files.")).toBeVisible();
  await visitor.getByLabel("Your name (required)").fill("Ada Lovelace");
  await visitor.getByLabel("Your email (required)").fill("ada@example.test");
  await expect(pick).toBeEnabled();
  await visitor.getByTestId("deposit-input").setInputFiles([
    { name: "ada-cv.txt", mimeType: "text/plain", buffer: Buffer.from("analytical engine\n") },
    { name: "ada-letter.txt", mimeType: "text/plain", buffer: Buffer.from("dear committee\n".repeat(200)) },
  ]);
  await expect(visitor.getByTestId("deposit-state")).toHaveText(["Received", "Received"]);
  await screenshot(visitor, "drop-depositor-visitor");
  await visitor.context().close();

  await page.reload();
  await newestFirst(page);
  await row(page, name).click();
  await page.getByRole("toolbar", { name: "Actions" }).getByRole("button", { name: "Drop link" }).click();
  const reopened = page.getByRole("dialog", { name: `Drop link for “${name}”` });
  await reopened.getByRole("button", { name: "Who sent what", exact: true }).click();
  const deposits = reopened.getByRole("list", { name: "Deposits through Candidates 2026", exact: true });
  const depositor = deposits.getByTestId("depositor");
  await expect(depositor).toHaveCount(1);
  await expect(depositor).toContainText("Ada Lovelace");
  await expect(depositor).toContainText("ada@example.test");
  await expect(depositor.getByRole("listitem")).toHaveCount(2);
  await expect(depositor).toContainText("ada-cv.txt");
  await expect(depositor).toContainText("ada-letter.txt");
  await screenshot(page, "drop-depositor-owner");
});
