import { expect, test, type Page } from "@playwright/test";
import { makeDocx, makeVideo } from "../tests/api/previews/converter-fixtures";
import { screenshot, seedFolder, signInAsAdmin } from "./helpers";

const suffix = () => Math.random().toString(36).slice(2, 7);
const row = (page: Page, name: string) => page.getByRole("row").filter({ has: page.getByText(name, { exact: true }) });

test("a Word document is previewed through the PDF the server made of it, and an MP4 plays", async ({ page, request }) => {
  const folder = await seedFolder(request, `Media ${suffix()}`, [
    { name: "a-letter.docx", mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document", buffer: await makeDocx("Quarterly figures for the board") },
    { name: "b-clip.mp4", mimeType: "video/mp4", buffer: makeVideo("mp4", 3) },
  ]);
  await signInAsAdmin(page);
  await page.goto(`/files/${folder.id}`);
  await expect(page.getByRole("grid")).toBeVisible();

  await row(page, "a-letter.docx").dblclick();
  const preview = page.getByTestId("preview");
  await expect(preview.getByRole("heading", { name: "a-letter.docx" })).toBeVisible();
  // LibreOffice converts it in the previews job; the PDF view waits for it.
  await expect(preview.getByTestId("pdf-page")).toHaveText("Page 1 of 1", { timeout: 45_000 });
  await expect(preview.getByTestId("pdf-text")).toContainText("Quarterly figures");
  await screenshot(page, "preview-docx");

  await page.keyboard.press("ArrowRight");
  await expect(preview.getByRole("heading", { name: "b-clip.mp4" })).toBeVisible();
  const video = preview.getByTestId("video-preview");
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
  expect(await video.evaluate((v: HTMLVideoElement) => v.duration)).toBeGreaterThan(2);
  await screenshot(page, "preview-mp4");
  await page.keyboard.press("Escape");

  // Both got a thumbnail in the list (a poster frame for the video).
  for (const name of ["a-letter.docx", "b-clip.mp4"]) {
    const thumb = row(page, name).locator("img");
    await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.naturalWidth), { timeout: 30_000 }).toBeGreaterThan(0);
  }
  await screenshot(page, "preview-thumbnails");
});
