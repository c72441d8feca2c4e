import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { makeDocx, makeVideo } from "../tests/api/previews/converter-fixtures";
import { pdfWithPages } from "./fixtures";
import { createUser, screenshot, signIn } from "./helpers";

const suffix = () => Math.random().toString(36).slice(2, 7);
const row = (page: Page, name: string) => page.getByRole("row").filter({ has: page.getByText(name, { exact: true }) });
const BIG = 120;
/** Sizes whose order is not the names' order: n-110 is the largest, and by name it is on the second page (100 rows a page). */
const sizeOf = (i: number) => (i === 110 ? 500 : (i % 50) + 1);
const nameOf = (i: number) => `n-${String(i).padStart(3, "0")}.txt`;

/** A fresh user's folder "Find s" holding BIG files and "Deep s" (a two-page PDF, an MP4 and a docx). */
async function seed(request: APIRequestContext) {
  const user = await createUser(request, { firstname: "Fay", lastname: "Finder" });
  const { token } = await (await request.post("/api/auth", { data: { user: user.login, password: user.password } })).json();
  const headers = { Authorization: `Bearer ${token}` };
  const roots = await (await request.get("/api/roots", { headers })).json();
  const root = roots.find((r: { type: string }) => r.type === "private").id;
  const s = suffix();
  const mk = async (name: string, parent: number) => (await (await request.post("/api/folder", { headers, data: { name, parent_id: parent } })).json()) as { id: number; name: string };
  const top = await mk(`Find ${s}`, root);
  const deep = await mk(`Deep ${s}`, top.id);
  const upload = async (folderId: number, name: string, mimeType: string, buffer: Buffer) =>
    expect((await request.post("/api/file/upload", { headers, multipart: { folderId: String(folderId), targetFile: { name, mimeType, buffer } } })).status()).toBe(201);
  for (let i = 1; i <= BIG; i++) await upload(top.id, nameOf(i), "text/plain", Buffer.from("x".repeat(sizeOf(i))));
  const word = `narwhal${s}`;
  await upload(deep.id, "memo.docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", await makeDocx(`The board minutes mention ${word} twice`));
  await upload(deep.id, "a-pages.pdf", "application/pdf", pdfWithPages(["First page", "Second page"]));
  await upload(deep.id, "b-clip.mp4", "video/mp4", makeVideo("mp4", 2));
  // The docx's words come from LibreOffice in the text job: wait for them through the API.
  await expect
    .poll(async () => ((await (await request.get(`/api/folder/${root}?recursive=1&in_content=1&search_label=${word}`, { headers })).json()).files ?? []).length, { timeout: 120_000 })
    .toBe(1);
  await request.delete("/api/auth", { headers });
  return { user, top, deep, word };
}

for (const [label, width, height] of [["desktop", 1280, 800], ["phone", 390, 844]] as const) {
  test(`finding files (${label}): a docx found by its words, its path opening its folder, server sort past the first page, recent files, previews`, async ({ page, request }) => {
    test.setTimeout(300_000);
    const { user, top, deep, word } = await seed(request);
    await page.setViewportSize({ width, height });
    await signIn(page, user.password, user.login);
    await expect(page).toHaveURL("/");

    // Recent: the sidebar lists the last files on a desktop; a phone has the Recent page.
    if (label === "desktop") {
      const recent = page.getByRole("region", { name: "Recent" });
      await expect(recent.getByRole("link", { name: "b-clip.mp4" })).toBeVisible();
      await expect(recent.getByRole("listitem")).toHaveCount(5);
      await screenshot(page, "find-recent-sidebar");
      await recent.getByRole("link", { name: "memo.docx" }).click();
    } else {
      await page.getByRole("navigation").getByRole("link", { name: "Recent" }).click();
      await expect(page.getByRole("list", { name: "Recent files" }).getByText("memo.docx")).toBeVisible();
      await page.getByRole("listitem").filter({ hasText: "memo.docx" }).getByRole("link", { name: "Show in folder" }).click();
    }
    await expect(page).toHaveURL(`/files/${deep.id}`);
    await expect(row(page, "memo.docx")).toBeVisible();

    // Server sort: the largest file is on the second page by name, yet first by size descending
    // (on a phone, where Size is hidden, the last name comes first by name descending).
    await page.goto(`/files/${top.id}`);
    await expect(row(page, nameOf(1))).toBeVisible();
    await expect(page.getByText(`${BIG + 1} items`)).toBeVisible();
    const [column, expected] = label === "desktop" ? (["Size", nameOf(110)] as const) : (["Name", nameOf(BIG)] as const);
    const header = page.getByRole("button", { name: `Sort by ${column}` });
    const columnHeader = page.getByRole("columnheader").filter({ has: header });
    // Name is the order at first: one click turns it; another column sorts ascending, then descending.
    if (column === "Size") {
      await header.click();
      await expect(columnHeader).toHaveAttribute("aria-sort", "ascending");
      await expect(row(page, nameOf(50))).toHaveAttribute("aria-rowindex", "3");
    }
    await header.click();
    await expect(columnHeader).toHaveAttribute("aria-sort", "descending");
    await expect(row(page, expected)).toHaveAttribute("aria-rowindex", "3");
    await expect(row(page, deep.name)).toHaveAttribute("aria-rowindex", "2");
    await screenshot(page, `find-server-sort-${label}`);

    // Content search: the docx is found by a word of its text; its path's folder opens it.
    await page.getByRole("button", { name: "Filters" }).click();
    await page.getByLabel("Also in file contents").check();
    await page.getByLabel("Search by name").fill(word);
    const memo = row(page, "memo.docx");
    await expect(memo).toBeVisible();
    await expect(memo.getByTestId("search-snippet")).toContainText(word);
    const path = memo.getByRole("navigation", { name: "Folder of this result" });
    await expect(path).toHaveText(`/My files/${top.name}/${deep.name}`);
    await screenshot(page, `find-docx-search-${label}`);
    await path.getByRole("link", { name: deep.name }).click();
    await expect(page).toHaveURL(`/files/${deep.id}`);
    await expect(page.getByLabel("Search by name")).toHaveValue("");
    await expect(row(page, "a-pages.pdf")).toBeVisible();

    // Preview: "next page" on the PDF's last page, then → still moves to the next file.
    await row(page, "a-pages.pdf").dblclick();
    const preview = page.getByTestId("preview");
    await expect(preview.getByTestId("pdf-page")).toHaveText("Page 1 of 2", { timeout: 30_000 });
    await preview.getByRole("button", { name: "Next page" }).click();
    await expect(preview.getByTestId("pdf-page")).toHaveText("Page 2 of 2");
    await expect(preview.getByRole("button", { name: "Next page" })).toBeDisabled();
    await page.keyboard.press("ArrowRight");
    await expect(preview.getByRole("heading", { name: "b-clip.mp4" })).toBeVisible();

    // The video at its natural size (320×240), or as wide as a phone allows, its shape kept.
    const video = preview.getByTestId("video-preview");
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
    const box = await video.evaluate((v: HTMLVideoElement) => {
      const r = v.getBoundingClientRect();
      return { w: Math.round(r.width), h: Math.round(r.height), nw: v.videoWidth, nh: v.videoHeight };
    });
    expect(box).toMatchObject({ nw: 320, nh: 240 });
    if (label === "desktop") expect(box).toMatchObject({ w: 320, h: 240 });
    else {
      expect(box.w).toBeLessThanOrEqual(width);
      expect(box.w).toBeGreaterThan(200);
      expect(Math.abs(box.w / box.h - 4 / 3)).toBeLessThan(0.02);
    }
    await screenshot(page, `find-video-${label}`);
    await page.keyboard.press("ArrowLeft");
    await expect(preview.getByRole("heading", { name: "a-pages.pdf" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(preview).toBeHidden();
  });
}
