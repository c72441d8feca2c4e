import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { pdfWithText } from "./fixtures";
import { ADMIN } from "./env";
import { adminApi, newestFirst, screenshot, seedFolder, signInAsAdmin } from "./helpers";
import { receivedMails } from "./mailbox";

const suffix = () => Math.random().toString(36).slice(2, 7);
const row = (page: Page, name: string) => page.getByRole("row").filter({ has: page.getByText(name, { exact: true }) });

/** Opens the folder's parent, selects the folder and runs a toolbar action on it. */
async function actOnFolder(page: Page, name: string, action: string) {
  await page.goto("/files");
  await newestFirst(page);
  await row(page, name).click();
  await page.getByRole("toolbar", { name: "Actions" }).getByRole("button", { name: action }).click();
}

test("a password-protected share is opened without an account: a PDF is previewed and everything downloaded as a zip", async ({ page, browser, request }) => {
  const name = `Board pack ${suffix()}`;
  await seedFolder(request, name, [{ name: "figures.pdf", mimeType: "application/pdf", buffer: pdfWithText("Quarterly figures for the board") }, "minutes.txt"]);
  await signInAsAdmin(page);
  await actOnFolder(page, name, "Share by link");
  const dialog = page.getByRole("dialog", { name: `Share “${name}”` });
  await dialog.getByLabel("Protect with a password").check();
  await dialog.getByLabel("Password of the link").fill("board-2026");
  await dialog.getByRole("button", { name: "Create the link" }).click();
  const url = await dialog.getByTestId("link-url").first().inputValue();
  expect(url).toMatch(/\/s\/[\w-]+$/);
  await screenshot(page, "share-dialog");

  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(new URL(url).pathname);
  await expect(visitor.getByText("This link is protected.")).toBeVisible();
  await visitor.getByLabel("Password").fill("not-the-one");
  await visitor.getByRole("button", { name: "Open" }).click();
  await expect(visitor.getByRole("main").getByRole("alert")).toHaveText("This password is not the right one.");
  await screenshot(visitor, "share-password");
  await visitor.getByLabel("Password").fill("board-2026");
  await visitor.getByRole("button", { name: "Open" }).click();

  await visitor.getByRole("button", { name: new RegExp(name) }).click();
  await expect(visitor.getByTestId("shared-item")).toHaveCount(2);
  // The PDF's thumbnail, read through the link's key.
  const thumbnail = visitor.getByTestId("shared-item").filter({ hasText: "figures.pdf" }).locator("img");
  await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth), { timeout: 30_000 }).toBeGreaterThan(0);
  // Issue 30: the PDF opens in the page-by-page viewer, its pages rendered by the server.
  await visitor.getByRole("button", { name: "Preview figures.pdf" }).click();
  const viewer = visitor.getByTestId("page-viewer");
  await expect(viewer.getByTestId("page-indicator")).toHaveText("Page 1 of 1");
  await expect.poll(() => viewer.locator("[data-page='1'] img").evaluate((img: HTMLImageElement) => img.naturalWidth), { timeout: 30_000 }).toBeGreaterThan(0);
  await screenshot(visitor, "share-preview-pdf");
  await viewer.getByRole("button", { name: "Close" }).click();

  const [zip] = await Promise.all([visitor.waitForEvent("download"), visitor.getByRole("link", { name: "Download everything (zip)" }).click()]);
  const bytes = readFileSync(await zip.path());
  expect(bytes.subarray(0, 2).toString()).toBe("PK");
  expect(bytes.includes(Buffer.from("figures.pdf"))).toBe(true);
  expect(bytes.includes(Buffer.from("minutes.txt"))).toBe(true);
  await visitor.context().close();
});

test("an unknown link says so in plain words", async ({ page }) => {
  await page.goto("/s/no-such-link-key");
  await expect(page.getByRole("main").getByRole("alert")).toHaveText(/does not exist/);
  await screenshot(page, "share-unknown");
  await page.goto("/d/no-such-drop-key");
  await expect(page.getByRole("main").getByRole("alert")).toHaveText(/does not exist/);
});

test("two files are dropped through a drop link, and the owner receives the receipts", async ({ page, browser, request }) => {
  const name = `Applications ${suffix()}`;
  const folder = await seedFolder(request, name, ["cv.txt"]);
  const { headers, end } = await adminApi(request);
  // A new email re-authenticates (api.md, "Account security").
  await request.put("/api/account", { headers, data: { email: "owner@coffre.test", password: ADMIN.password } });
  await end();

  await signInAsAdmin(page);
  await actOnFolder(page, name, "Drop link");
  const dialog = page.getByRole("dialog", { name: `Drop link for “${name}”` });
  await dialog.getByLabel("Name shown to visitors").fill("Applications 2026");
  await dialog.getByRole("button", { name: "Create the drop link" }).click();
  const url = await dialog.getByTestId("link-url").first().inputValue();
  expect(url).toMatch(/\/d\/[\w-]+$/);

  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(new URL(url).pathname);
  await expect(visitor.getByRole("heading", { name: "Applications 2026" })).toBeVisible();
  await visitor.getByTestId("deposit-input").setInputFiles([
    { name: "cv.txt", mimeType: "text/plain", buffer: Buffer.from("my curriculum vitae\n") },
    { name: "letter.txt", mimeType: "text/plain", buffer: Buffer.from("dear committee\n".repeat(1000)) },
  ]);
  await expect(visitor.getByTestId("deposit-state")).toHaveText(["Received", "Received"]);
  await expect(visitor.getByRole("status")).toHaveText(/All 2 file\(s\) were received/);
  await screenshot(visitor, "drop-deposited");
  await visitor.context().close();

  // The receipts arrive on the local SMTP server; an existing name was not overwritten.
  await expect.poll(() => receivedMails().filter((m) => m.to.includes("owner@coffre.test") && m.subject.includes(name)).length, { timeout: 30_000 }).toBe(2);
  const listing = await (async () => {
    const api = await adminApi(request);
    const body = await (await request.get(`/api/folder/${folder.id}?depth=0`, { headers: api.headers })).json();
    await api.end();
    return body.content.files.map((f: { name: string }) => f.name).sort();
  })();
  expect(listing).toHaveLength(3);
  expect(listing).toContain("letter.txt");
  await page.goto(`/files/${folder.id}`);
  await expect(page.getByRole("row")).toHaveCount(4);
  await screenshot(page, "drop-received-by-owner");
});
