import { expect, test, type Page } from "@playwright/test";
import { newestFirst, screenshot, seedFolder, signInAsAdmin } from "./helpers";

const suffix = () => Math.random().toString(36).slice(2, 7);
const row = (page: Page, name: string) => page.getByRole("row").filter({ has: page.getByText(name, { exact: true }) });

test("a folder is archived from its menu, appears on the Archives page, and is restored to its place", async ({ page, request }) => {
  const name = `Closed project ${suffix()}`;
  const folder = await seedFolder(request, name, ["minutes.txt", "budget.txt"]);
  await signInAsAdmin(page);
  await page.goto("/files");
  await newestFirst(page);
  await expect(row(page, name)).toBeVisible();

  // The row's menu: Archive.
  await row(page, name).getByRole("button", { name: `More actions for ${name}` }).click();
  await page.getByRole("menuitem", { name: "Archive" }).click();
  await expect(page.getByText(`${name} was archived.`)).toBeVisible();
  await expect(row(page, name)).toHaveCount(0);

  // The notice leads to the Archives page, where the move finishes on its own.
  await page.getByRole("button", { name: "Open the archives" }).click();
  await expect(page).toHaveURL("/archives");
  const item = page.getByTestId("archive-row").filter({ hasText: name });
  await expect(item.getByTestId("archive-state")).toHaveText("Archived", { timeout: 30_000 });
  await expect(item).toContainText("2 files, 0 sub-folders");
  await item.getByRole("button", { name: `Rename or comment ${name}` }).click();
  const edit = page.getByRole("dialog", { name: `Rename or comment ${name}` });
  await edit.getByLabel("Comment").fill("Kept for the audit");
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(item).toContainText("Kept for the audit");
  await screenshot(page, "archives-page");

  await item.getByRole("button", { name: `Restore ${name} to its place` }).click();
  await expect(page.getByText(`${name} is being restored`)).toBeVisible();
  await expect(item).toHaveCount(0, { timeout: 30_000 });

  await page.getByRole("link", { name: "My files" }).click();
  await expect(row(page, name)).toBeVisible();
  await page.goto(`/files/${folder.id}`);
  await expect(row(page, "minutes.txt")).toBeVisible();
  await expect(row(page, "budget.txt")).toBeVisible();
  await screenshot(page, "archives-restored");
});
