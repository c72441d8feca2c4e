import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { screenshot, seedFolder, signInAsAdmin } from "./helpers";

const suffix = () => Math.random().toString(36).slice(2, 7);

const row = (page: Page, name: string) => page.getByRole("row").filter({ has: page.getByText(name, { exact: true }) });

test("a folder is created, opened, and filled by dropping files and picking a folder, with progress shown", async ({ page }) => {
  await signInAsAdmin(page);
  await page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "My files" }).click();
  await expect(page).toHaveURL("/files");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("My files");

  const name = `Journey ${suffix()}`;
  await page.getByRole("button", { name: "New folder" }).click();
  const dialog = page.getByRole("dialog", { name: "New folder" });
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByRole("button", { name: "Create" }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole("link", { name, exact: true }).click();
  await expect(page).toHaveURL(/\/files\/\d+$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
  await expect(page.getByRole("navigation", { name: "Folder path" })).toContainText("My files");
  await expect(page.getByText("This folder is empty.")).toBeVisible();

  // Reload and back keep the place: the URL is the folder.
  const folderUrl = page.url();
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);

  // A drop of several files on the browser, as a DataTransfer (what a desktop drag delivers).
  const dataTransfer = await page.evaluateHandle(() => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(["alpha ".repeat(200_000)], "alpha.txt", { type: "text/plain" }));
    transfer.items.add(new File(["bravo"], "bravo.txt", { type: "text/plain" }));
    transfer.items.add(new File(["charlie"], "charlie.md", { type: "text/markdown" }));
    return transfer;
  });
  const browser = page.getByTestId("upload-input").locator("..");
  await browser.dispatchEvent("dragenter", { dataTransfer });
  await browser.dispatchEvent("drop", { dataTransfer });
  const panel = page.getByRole("region", { name: /Uploads/ });
  await expect(panel).toBeVisible();
  await expect(panel.getByRole("progressbar", { name: "alpha.txt" })).toBeVisible();
  await expect(panel).toContainText("3 of 3 done");
  await expect(row(page, "alpha.txt")).toBeVisible();
  await expect(row(page, "bravo.txt")).toBeVisible();
  await expect(row(page, "charlie.md")).toBeVisible();

  // A whole folder keeps its structure.
  const dir = mkdtempSync(path.join(tmpdir(), "coffre-e2e-"));
  mkdirSync(path.join(dir, "photos", "2024"), { recursive: true });
  writeFileSync(path.join(dir, "photos", "cover.txt"), "cover");
  writeFileSync(path.join(dir, "photos", "2024", "summer.txt"), "summer");
  await page.getByTestId("upload-folder-input").setInputFiles(path.join(dir, "photos"));
  await expect(panel).toContainText("5 of 5 done");
  await page.getByRole("link", { name: "photos", exact: true }).click();
  await expect(row(page, "cover.txt")).toBeVisible();
  await page.getByRole("link", { name: "2024", exact: true }).click();
  await expect(row(page, "summer.txt")).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Folder path" }).getByRole("listitem")).toHaveText(["My files", name, "photos", "2024"]);

  await page.goBack();
  await page.goBack();
  await expect(page).toHaveURL(folderUrl);
  await expect(row(page, "alpha.txt")).toBeVisible();
  await screenshot(page, "files-uploaded");
});

test("files are renamed, moved with the folder picker, and deleted with an undo", async ({ page, request }) => {
  const folder = await seedFolder(request, `Organise ${suffix()}`, ["report.txt", "notes.txt", "draft.txt"]);
  const archive = await seedFolder(request, `Archive ${suffix()}`, []);
  await signInAsAdmin(page);
  await page.goto(`/files/${folder.id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(folder.name);

  // Rename from the toolbar.
  await row(page, "report.txt").getByRole("gridcell").nth(3).click();
  await expect(page.getByRole("toolbar")).toContainText("1 selected");
  await page.getByRole("toolbar").getByRole("button", { name: "Rename" }).click();
  const rename = page.getByRole("dialog", { name: "Rename “report.txt”" });
  await rename.getByLabel("Name").fill("report-final.txt");
  await rename.getByLabel("Name").press("Enter");
  await expect(row(page, "report-final.txt")).toBeVisible();
  await expect(row(page, "report.txt")).toHaveCount(0);

  // Move through the context menu (the "⋯" button) and the picker.
  await row(page, "notes.txt").getByRole("button", { name: "More actions for notes.txt" }).click();
  await page.getByRole("menuitem", { name: "Move" }).click();
  const picker = page.getByRole("dialog", { name: /Move 1 item/ });
  await picker.getByRole("button", { name: archive.name }).click();
  await expect(picker).toContainText(`Destination: ${archive.name}`);
  await picker.getByRole("button", { name: "Move here" }).click();
  await expect(picker).toBeHidden();
  await expect(row(page, "notes.txt")).toHaveCount(0);

  // Delete with the keyboard, then undo from the notice.
  const grid = page.getByRole("grid");
  await row(page, "draft.txt").getByRole("gridcell").nth(3).click();
  await grid.press("Delete");
  const notice = page.getByRole("status").filter({ hasText: "“draft.txt” was moved to the trash." });
  await expect(notice).toBeVisible();
  await expect(row(page, "draft.txt")).toHaveCount(0);
  await notice.getByRole("button", { name: "Undo" }).click();
  await expect(row(page, "draft.txt")).toBeVisible();

  // Keyboard selection: arrows, shift to extend, ctrl+A for all.
  await grid.focus();
  await grid.press("Home");
  await grid.press("Shift+ArrowDown");
  await expect(page.getByRole("toolbar")).toContainText("2 selected");
  await grid.press("Control+a");
  await expect(page.getByRole("toolbar")).toContainText("2 selected");

  await page.goto(`/files/${archive.id}`);
  await expect(row(page, "notes.txt")).toBeVisible();
  await page.goBack();
  await expect(row(page, "report-final.txt")).toBeVisible();
  await screenshot(page, "files-organised");
});

test("a row below the fold opens its menu from its “⋯” without the list jumping to the top", async ({ page, request }) => {
  const names = Array.from({ length: 24 }, (_, i) => `row-${String(i).padStart(2, "0")}.txt`);
  const folder = await seedFolder(request, `Long ${suffix()}`, names);
  await page.setViewportSize({ width: 1280, height: 720 });
  await signInAsAdmin(page);
  await page.goto(`/files/${folder.id}`);
  const grid = page.getByRole("grid");
  // Row 12 sits below the list's visible height: the click on its button is the grid's first focus.
  await grid.evaluate((el) => (el.scrollTop = 12 * 44));
  const target = row(page, "row-12.txt");
  await target.getByRole("button", { name: "More actions for row-12.txt" }).click();
  await expect(page.getByRole("menuitem", { name: "Rename" })).toBeVisible();
  await expect(target).toHaveAttribute("aria-selected", "true");
  expect(await grid.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
  await page.keyboard.press("Escape");
});

test("a deleted file is restored from the trash page, and the trash is emptied", async ({ page, request }) => {
  // Names of this run only: a retry finds the first attempt's files still in the trash.
  const [keep, lose] = [`keep-${suffix()}.txt`, `lose-${suffix()}.txt`];
  const folder = await seedFolder(request, `Trash ${suffix()}`, [keep, lose]);
  await signInAsAdmin(page);
  await page.goto(`/files/${folder.id}`);

  for (const name of [keep, lose]) {
    await row(page, name).click({ button: "right" });
    await page.getByRole("menuitem", { name: "Delete" }).click();
    await expect(row(page, name)).toHaveCount(0);
  }

  await page.getByRole("link", { name: "Trash" }).click();
  await expect(page).toHaveURL("/trash");
  const kept = page.getByRole("main").getByRole("listitem").filter({ hasText: keep });
  await expect(kept).toContainText(folder.name);
  await kept.getByRole("button", { name: `Restore ${keep}`, exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: `“${keep}” was restored` })).toBeVisible();
  await expect(kept).toHaveCount(0);
  await screenshot(page, "trash-restored");

  await page.getByRole("button", { name: "Empty trash" }).click();
  const confirm = page.getByRole("dialog", { name: "Empty the trash?" });
  await expect(confirm).toContainText("cannot be undone");
  await confirm.getByRole("button", { name: "Empty trash" }).click();
  await expect(page.getByText("The trash is empty.")).toBeVisible();
  await screenshot(page, "trash-emptied");

  await page.goto(`/files/${folder.id}`);
  await expect(row(page, keep)).toBeVisible();
  await expect(row(page, lose)).toHaveCount(0);
});

test("a name is found by search and its folder opens from the result", async ({ page, request }) => {
  const needle = `needle-${suffix()}`;
  const folder = await seedFolder(request, `Search ${suffix()}`, [`${needle}.txt`, "haystack.txt"]);
  await signInAsAdmin(page);
  await page.goto("/files");
  await page.getByRole("searchbox", { name: "Search by name" }).fill(needle);
  await expect(page.getByRole("heading", { name: `Results for “${needle}”` })).toBeVisible();
  const result = row(page, `${needle}.txt`);
  await expect(result).toBeVisible();
  await expect(row(page, "haystack.txt")).toHaveCount(0);
  await screenshot(page, "files-search");

  await result.dblclick();
  await expect(page).toHaveURL(`/files/${folder.id}`);
  await expect(row(page, "haystack.txt")).toBeVisible();
});

test("the file browser fits a 375 px screen", async ({ page, request }) => {
  const folder = await seedFolder(request, `Phone ${suffix()}`, ["a-rather-long-file-name-for-a-small-screen.pdf", "b.txt"]);
  await page.setViewportSize({ width: 375, height: 740 });
  await signInAsAdmin(page);
  await page.goto(`/files/${folder.id}`);
  await expect(row(page, "b.txt")).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await screenshot(page, "files-on-a-phone");
});
