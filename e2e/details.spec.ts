import { expect, test, type Page } from "@playwright/test";
import { pdfWithText, solidPng } from "./fixtures";
import { adminApi, createUser, newestFirst, screenshot, seedFolder, signIn, signInAsAdmin } from "./helpers";

const suffix = () => Math.random().toString(36).slice(2, 7);
const row = (page: Page, name: string) => page.getByRole("row").filter({ has: page.getByText(name, { exact: true }) });

async function openFolder(page: Page, id: number) {
  await page.goto(`/files/${id}`);
  await expect(page.getByRole("grid")).toBeVisible();
}

/**
 * Selects a row and opens its details panel from the toolbar. The click is tried again until the
 * toolbar offers Details: in a long list (every journey adds folders to the administrator's
 * space) rows can still move under the pointer while thumbnails and markers load.
 */
async function openDetails(page: Page, name: string) {
  const details = page.getByRole("toolbar", { name: /actions/i }).getByRole("button", { name: "Details" });
  await expect(async () => {
    await row(page, name).click();
    await expect(details).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await details.click();
  const panel = page.getByTestId("details-panel");
  await expect(panel.getByRole("heading", { name })).toBeVisible();
  return panel;
}

test("a new version is uploaded over a file, then the old one is made current again", async ({ page, request }) => {
  const folder = await seedFolder(request, `Versions ${suffix()}`, ["report.txt"]);
  await signInAsAdmin(page);
  await openFolder(page, folder.id);

  await page.getByTestId("upload-input").setInputFiles({ name: "report.txt", mimeType: "text/plain", buffer: Buffer.from("second draft, much longer\n") });
  await expect(page.getByText(/new version/i).first()).toBeVisible();
  // The upload panel says it became a new version; once done, it is cleared out of the way.
  await page.getByRole("region", { name: /Uploads/ }).getByRole("button", { name: "Clear" }).click();

  const panel = await openDetails(page, "report.txt");
  await expect(panel.getByTestId("version-row")).toHaveCount(2);
  await panel.getByTestId("version-row").nth(1).getByRole("button", { name: "Make current" }).click();
  await expect(page.getByText("Version 1 is the current version again.")).toBeVisible();
  await expect(panel.getByTestId("version-row")).toHaveCount(3);
  const download = await request.get(`/api/file/${await currentVersionId(request, folder.id, "report.txt")}/download`, { headers: (await adminApi(request)).headers });
  expect(await download.text()).toBe("content of report.txt\n");
  await screenshot(page, "version-restored", { show: panel });
});

async function currentVersionId(request: Parameters<typeof adminApi>[0], folderId: number, name: string): Promise<number> {
  const { headers } = await adminApi(request);
  const folder = await (await request.get(`/api/folder/${folderId}?depth=0`, { headers })).json();
  return folder.content.files.find((f: { name: string }) => f.name === name).id;
}

test("an image and a PDF are previewed, moving from one to the next with the arrow keys", async ({ page, request }) => {
  const folder = await seedFolder(request, `Preview ${suffix()}`, [
    { name: "a-photo.png", mimeType: "image/png", buffer: await solidPng(640, 400, [30, 120, 200]) },
    { name: "b-figures.pdf", mimeType: "application/pdf", buffer: pdfWithText("Quarterly figures for the board") },
  ]);
  await signInAsAdmin(page);
  await openFolder(page, folder.id);

  await row(page, "a-photo.png").dblclick();
  const preview = page.getByTestId("preview");
  await expect(preview.getByRole("heading", { name: "a-photo.png" })).toBeVisible();
  const image = preview.getByRole("img", { name: "a-photo.png" });
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(640);
  await screenshot(page, "preview-image");

  await page.keyboard.press("ArrowRight");
  await expect(preview.getByRole("heading", { name: "b-figures.pdf" })).toBeVisible();
  await expect(preview.getByTestId("pdf-page")).toHaveText("Page 1 of 1");
  await expect(preview.getByTestId("pdf-text")).toContainText("Quarterly figures");
  await screenshot(page, "preview-pdf");
  await page.keyboard.press("Escape");
  await expect(preview).toBeHidden();
});

test("a comment is written on a file and answered; another reader sees it as unread until they open it", async ({ page, request, browser }) => {
  const folder = await seedFolder(request, `Comments ${suffix()}`, ["plan.txt"]);
  await signInAsAdmin(page);
  await openFolder(page, folder.id);
  const panel = await openDetails(page, "plan.txt");
  await panel.getByRole("tab", { name: "Comments" }).click();
  await panel.getByLabel("Write a comment").fill("Can we ship this on Friday?");
  await panel.getByRole("button", { name: "Comment", exact: true }).click();
  await expect(panel.getByTestId("comment")).toHaveCount(1);
  await panel.getByRole("button", { name: "Reply", exact: true }).click();
  await panel.getByLabel("Your reply").fill("Yes, after the review.");
  await page.keyboard.press("Control+Enter");
  const replies = panel.getByRole("list", { name: "Replies" });
  await expect(replies.getByTestId("comment")).toHaveText(/Yes, after the review\./);
  await expect(row(page, "plan.txt").getByTestId("comment-marker")).toHaveAccessibleName("2 comment(s)");
  await screenshot(page, "comment-and-reply", { show: panel });

  // A reader of the folder: the list says 2 unread; opening the comments reads them.
  const reader = await createUser(request, { firstname: "Rosalind", lastname: "Franklin" });
  const { headers, end } = await adminApi(request);
  const found = await (await request.get(`/api/users?keyword=${reader.login}`, { headers })).json();
  await request.post("/api/right", { headers, data: { folder_id: folder.id, target_id: found.objects[0].id, browse: true, read: true } });
  await end();
  const context = await browser.newContext();
  const second = await context.newPage();
  await signIn(second, reader.password, reader.login);
  await expect(second).toHaveURL("/");
  await openFolder(second, folder.id);
  await expect(row(second, "plan.txt").getByTestId("comment-marker")).toHaveAccessibleName("2 comment(s), 2 unread");
  const theirs = await openDetails(second, "plan.txt");
  await theirs.getByRole("tab", { name: /Comments/ }).click();
  await expect(theirs.getByText("New")).toHaveCount(2);
  await expect(row(second, "plan.txt").getByTestId("comment-marker")).toHaveAccessibleName("2 comment(s)");
  await screenshot(second, "comments-unread-for-a-reader", { show: theirs });
  await context.close();
});

test("a locked file is refused to another user, who is told who holds the lock", async ({ page, request, browser }) => {
  const folder = await seedFolder(request, `Lock ${suffix()}`, ["contract.txt"]);
  const other = await createUser(request, { firstname: "Ada", lastname: "Lovelace" });
  const { headers, end } = await adminApi(request);
  const user = await (await request.get(`/api/users?keyword=${other.login}`, { headers })).json();
  const otherId = user.objects[0].id;
  const granted = await request.post("/api/right", { headers, data: { folder_id: folder.id, target_id: otherId, browse: true, read: true, download: true, write: true, edit: true, delete: true } });
  expect(granted.status()).toBe(201);
  await end();

  await signInAsAdmin(page);
  await openFolder(page, folder.id);
  const panel = await openDetails(page, "contract.txt");
  await panel.getByRole("button", { name: "Lock" }).click();
  await expect(panel.getByTestId("lock-state")).toHaveText(/You locked this file/);

  const context = await browser.newContext();
  const second = await context.newPage();
  await signIn(second, other.password, other.login);
  await expect(second).toHaveURL("/");
  await openFolder(second, folder.id);
  const theirs = await openDetails(second, "contract.txt");
  await expect(theirs.getByTestId("lock-state")).toHaveText(/Locked by Administrator/);
  await row(second, "contract.txt").click();
  await second.keyboard.press("F2");
  const dialog = second.getByRole("dialog", { name: /Rename/ });
  await dialog.getByLabel("Name").fill("mine-now.txt");
  await dialog.getByRole("button", { name: "Rename" }).click();
  await expect(dialog.getByText(/locked by someone else/)).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(row(second, "contract.txt")).toBeVisible();
  await screenshot(second, "lock-refused");
  await context.close();
});

test("a folder's access is given to a second user, who then finds it in their shared space", async ({ page, request, browser }) => {
  const name = `Team ${suffix()}`;
  const folder = await seedFolder(request, name, ["budget.txt"]);
  const other = await createUser(request, { firstname: "Katherine", lastname: `Johnson${suffix()}` });

  await signInAsAdmin(page);
  await page.goto("/files");
  await newestFirst(page);
  const panel = await openDetails(page, name);
  await panel.getByRole("tab", { name: "Access" }).click();
  await panel.getByLabel(/Add a person or a group/).fill(other.lastname);
  await panel.getByRole("button", { name: new RegExp(other.lastname) }).click();
  await expect(panel.getByTestId("right-row").filter({ hasText: other.lastname })).toBeVisible();
  await expect(panel.getByTestId("right-row").filter({ hasText: other.lastname }).getByLabel("Download")).toBeChecked();
  await screenshot(page, "access-granted", { show: panel });

  const context = await browser.newContext();
  const second = await context.newPage();
  await signIn(second, other.password, other.login);
  await expect(second).toHaveURL("/");
  await second.goto("/files/shared");
  await expect(second.getByRole("link", { name, exact: true })).toBeVisible();
  await second.getByRole("link", { name, exact: true }).click();
  await expect(row(second, "budget.txt")).toBeVisible();
  await screenshot(second, "shared-space-of-second-user");
  await context.close();
  expect(folder.id).toBeGreaterThan(0);
});

test("the file screens follow the language chosen on the account page, and search filters find a PDF by its words", async ({ page, request }) => {
  const user = await createUser(request, { firstname: "Marie", lastname: "Curie" });
  await signIn(page, user.password, user.login);
  await expect(page).toHaveURL("/");
  await page.goto("/account");
  const language = page.getByRole("region", { name: "Language" });
  await language.getByLabel("Interface language").selectOption("fr");
  await language.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Compte");

  await page.getByRole("navigation").getByRole("link", { name: "Mes fichiers" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Mes fichiers");
  await expect(page.getByRole("button", { name: "Nouveau dossier" })).toBeVisible();
  await page.getByTestId("upload-input").setInputFiles({ name: "rapport.pdf", mimeType: "application/pdf", buffer: pdfWithText("Radioactivite du polonium") });
  await expect(row(page, "rapport.pdf")).toBeVisible();

  // The words are in the PDF, not in its name: wait for the text job (through the API), then search.
  const { token } = await (await request.post("/api/auth", { data: { user: user.login, password: user.password } })).json();
  const headers = { Authorization: `Bearer ${token}` };
  const roots = await (await request.get("/api/roots", { headers })).json();
  const root = roots.find((r: { type: string }) => r.type === "private").id;
  await expect
    .poll(async () => (await (await request.get(`/api/folder/${root}?recursive=1&global=1&in_content=1&search_label=polonium`, { headers })).json()).files?.length ?? 0, { timeout: 30_000 })
    .toBe(1);
  await page.getByRole("button", { name: "Filtres" }).click();
  await page.getByLabel("Aussi dans le contenu des fichiers").check();
  await page.getByLabel("Rechercher par nom").fill("polonium");
  await expect(row(page, "rapport.pdf")).toBeVisible();
  await expect(page.getByRole("heading", { name: /polonium/ })).toBeVisible();
  await screenshot(page, "search-in-content-in-french");
});
