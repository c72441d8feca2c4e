import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { unzip } from "../tests/helpers/unzip";
import { pdfWithText, solidPng } from "./fixtures";
import { adminApi, newestFirst, screenshot, seedFolder, signInAsAdmin } from "./helpers";

const suffix = () => Math.random().toString(36).slice(2, 7);
const md5 = (data: Buffer) => createHash("md5").update(data).digest("hex");
const row = (page: Page, name: string) => page.getByRole("row").filter({ has: page.getByText(name, { exact: true }) });
/** A row's checkbox cell: the cell takes the click or the tap (the box itself lets it through). */
const checkCell = (page: Page, name: string) => row(page, name).getByRole("gridcell").filter({ has: page.getByRole("checkbox") });
const toolbar = (page: Page) => page.getByRole("toolbar", { name: "Actions" });
/** Runs a selection's action from the toolbar, or from its More menu when the toolbar had no room for it. */
async function runAction(page: Page, name: string) {
  const button = toolbar(page).getByRole("button", { name, exact: true });
  if (await button.isVisible()) return button.click();
  await toolbar(page).getByRole("button", { name: /More/ }).click();
  await page.getByRole("menu", { name: "More" }).getByRole("menuitem", { name, exact: true }).click();
}

const TEXTS = ["alpha.txt", "bravo.txt", "charlie.txt"];
const content = (name: string) => Buffer.from(`content of ${name}\n`);

/** A folder with three texts, a PDF, a PNG and a subfolder "Inbox" holding one more text. */
async function seedScene(page: Page) {
  const request = page.request;
  const pdf = pdfWithText("Quarterly figures, page one");
  const png = await solidPng(320, 200, [47, 91, 211]);
  const folder = await seedFolder(request, `Selection ${suffix()}`, [...TEXTS, { name: "figures.pdf", mimeType: "application/pdf", buffer: pdf }, { name: "chart.png", mimeType: "image/png", buffer: png }]);
  const { headers, end } = await adminApi(request);
  const inbox = await (await request.post("/api/folder", { headers, data: { name: "Inbox", parent_id: folder.id } })).json();
  const uploaded = await request.post("/api/file/upload", { headers, multipart: { folderId: String(inbox.id), targetFile: { name: "inside.txt", mimeType: "text/plain", buffer: content("inside.txt") } } });
  expect(uploaded.status()).toBe(201);
  await end();
  return { folder, inbox: inbox as { id: number; name: string }, pdf, png };
}

test("rows are picked with their checkboxes and select all; New folder and Upload stay; the rest overflows into More", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const { folder } = await seedScene(page);
  await signInAsAdmin(page);
  await page.goto(`/files/${folder.id}`);
  await checkCell(page, "alpha.txt").click();
  await checkCell(page, "charlie.txt").click();
  await expect(toolbar(page)).toContainText("2 selected");
  await expect(row(page, "bravo.txt")).toHaveAttribute("aria-selected", "false");
  await expect(toolbar(page).getByRole("button", { name: "New folder" })).toBeVisible();
  await expect(toolbar(page).getByRole("button", { name: "Upload", exact: true })).toBeVisible();
  for (const name of ["Download", "Move", "Copy", "Delete"]) await expect(toolbar(page).getByRole("button", { name, exact: true })).toBeVisible();

  // Shift+click on a checkbox adds the range; the header's box is indeterminate, then selects all.
  await checkCell(page, "alpha.txt").click();
  await checkCell(page, "figures.pdf").click({ modifiers: ["Shift"] });
  const selectAll = page.getByRole("checkbox", { name: "Select all" });
  expect(await selectAll.evaluate((box: HTMLInputElement) => box.indeterminate)).toBe(true);
  await selectAll.click();
  await expect(toolbar(page)).toContainText("6 selected");
  await expect(selectAll).toBeChecked();

  // Space toggles the active row from the keyboard; the sort headers are in the Tab order.
  await page.getByRole("grid").focus();
  await page.keyboard.press("Space");
  await expect(toolbar(page)).toContainText("5 selected");
  await screenshot(page, "selection-1440");

  // The row's ⋯ menu from the keyboard: Shift+F10 on the active row.
  await page.getByRole("grid").focus();
  await page.keyboard.press("Shift+F10");
  await expect(page.getByRole("menu")).toBeVisible();
  await page.keyboard.press("Escape");

  // At 768 px the actions that do not fit are in More.
  await page.setViewportSize({ width: 768, height: 900 });
  await checkCell(page, "alpha.txt").click();
  await checkCell(page, "alpha.txt").click();
  await toolbar(page).getByRole("button", { name: /More/ }).click();
  await expect(page.getByRole("menu", { name: "More" }).getByRole("menuitem").first()).toBeVisible();
  await screenshot(page, "selection-768");
  await page.keyboard.press("Escape");
});

test("at 390 px with touch, taps on checkboxes build a selection, and More holds New folder", async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  const { folder } = await seedScene(page);
  await signInAsAdmin(page);
  await page.goto(`/files/${folder.id}`);
  await checkCell(page, "alpha.txt").tap();
  await checkCell(page, "bravo.txt").tap();
  await expect(toolbar(page)).toContainText("2 selected");
  await toolbar(page).getByRole("button", { name: /More/ }).tap();
  const menu = page.getByRole("menu", { name: "More" });
  await expect(menu.getByRole("menuitem", { name: "New folder" })).toBeVisible();
  await expect(menu.getByRole("menuitem", { name: "Upload", exact: true })).toBeVisible();
  await screenshot(page, "selection-390");
  await context.close();
});

test("a folder is downloaded as one zip whose files have the uploaded bytes", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const { folder, pdf, png } = await seedScene(page);
  await signInAsAdmin(page);
  await page.goto("/files");
  await newestFirst(page);
  await checkCell(page, folder.name).click();
  const [download] = await Promise.all([page.waitForEvent("download"), runAction(page, "Download")]);
  expect(download.suggestedFilename()).toBe(`${folder.name}.zip`);
  const entries = await unzip(readFileSync(await download.path()));
  const sums = Object.fromEntries([...entries].filter(([, e]) => e.data).map(([name, e]) => [name, md5(e.data!)]));
  expect(sums).toEqual({
    ...Object.fromEntries(TEXTS.map((name) => [`${folder.name}/${name}`, md5(content(name))])),
    [`${folder.name}/figures.pdf`]: md5(pdf),
    [`${folder.name}/chart.png`]: md5(png),
    [`${folder.name}/Inbox/inside.txt`]: md5(content("inside.txt")),
  });
});

test("the grid view shows thumbnails on pages, is remembered, and keeps the selection and keys", async ({ page }) => {
  const { folder } = await seedScene(page);
  await signInAsAdmin(page);
  await page.goto(`/files/${folder.id}`);
  await page.getByRole("button", { name: "Grid" }).click();
  const grid = page.getByTestId("file-grid");
  await expect(grid).toBeVisible();
  const thumb = grid.getByRole("row").filter({ hasText: "figures.pdf" }).locator("img");
  await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.naturalWidth), { timeout: 30_000 }).toBeGreaterThan(0);
  await expect.poll(() => grid.getByRole("row").filter({ hasText: "chart.png" }).locator("img").evaluate((img: HTMLImageElement) => img.naturalWidth), { timeout: 30_000 }).toBeGreaterThan(0);
  await page.reload();
  await expect(page.getByTestId("file-grid")).toBeVisible();
  await expect(page.getByRole("button", { name: "Grid" })).toHaveAttribute("aria-pressed", "true");

  await grid.getByRole("row").filter({ hasText: "alpha.txt" }).getByRole("gridcell").first().click();
  await page.getByTestId("file-grid").focus();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("Shift+ArrowRight");
  await expect(toolbar(page)).toContainText("2 selected");
  for (const [width, name] of [[1440, "grid-1440"], [768, "grid-768"], [390, "grid-390"]] as const) {
    await page.setViewportSize({ width, height: 900 });
    await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await screenshot(page, name);
  }
  await page.getByRole("button", { name: "List" }).click();
  await expect(page.getByTestId("file-grid")).toBeHidden();
});

test("rows are dragged onto a folder and onto a breadcrumb, with an undo", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const { folder, inbox } = await seedScene(page);
  await signInAsAdmin(page);
  await page.goto(`/files/${folder.id}`);
  await checkCell(page, "alpha.txt").click();
  await checkCell(page, "bravo.txt").click();
  await row(page, "alpha.txt").dragTo(row(page, "Inbox"));
  const notice = page.getByText(`2 items moved to Inbox.`);
  await expect(notice).toBeVisible();
  await expect(row(page, "alpha.txt")).toHaveCount(0);
  await expect(row(page, "bravo.txt")).toHaveCount(0);
  await screenshot(page, "drag-moved");
  await page.getByRole("button", { name: "Undo" }).click();
  await expect(row(page, "alpha.txt")).toBeVisible();
  await expect(row(page, "bravo.txt")).toBeVisible();

  // Inside Inbox, a row dragged onto the parent's breadcrumb goes up a level.
  await page.goto(`/files/${inbox.id}`);
  await row(page, "inside.txt").dragTo(page.getByRole("navigation", { name: "Folder path" }).getByRole("link", { name: folder.name }));
  await expect(page.getByText(`inside.txt moved to ${folder.name}.`)).toBeVisible();
  await expect(row(page, "inside.txt")).toHaveCount(0);
  await page.goto(`/files/${folder.id}`);
  await expect(row(page, "inside.txt")).toBeVisible();
});
