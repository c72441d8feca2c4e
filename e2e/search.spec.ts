import { expect, test, type Page } from "@playwright/test";
import { pdfWithText, scannedPdf } from "./fixtures";
import { createUser, screenshot, signIn } from "./helpers";

const suffix = () => Math.random().toString(36).slice(2, 7);
const row = (page: Page, name: string) => page.getByRole("row").filter({ has: page.getByText(name, { exact: true }) });

test("a content search shows where each file is, the page of a PDF and the matched words in a snippet; the type filter keeps PDFs", async ({ page, request }) => {
  const user = await createUser(request, { firstname: "Ada", lastname: "Lovelace" });
  const { token } = await (await request.post("/api/auth", { data: { user: user.login, password: user.password } })).json();
  const headers = { Authorization: `Bearer ${token}` };
  const roots = await (await request.get("/api/roots", { headers })).json();
  const root = roots.find((r: { type: string }) => r.type === "private").id;
  const folderName = `Leases ${suffix()}`;
  const folder = await (await request.post("/api/folder", { headers, data: { name: folderName, parent_id: root } })).json();
  const upload = async (name: string, mimeType: string, buffer: Buffer) =>
    expect((await request.post("/api/file/upload", { headers, multipart: { folderId: String(folder.id), targetFile: { name, mimeType, buffer } } })).status()).toBe(201);
  await upload("lease.pdf", "application/pdf", pdfWithText("The tenant pays the service fee monthly"));
  // A hostile text: markup and a script in the words must stay words.
  await upload("notes.txt", "text/plain", Buffer.from(`Reminder <img src=x onerror=alert(1)> "the service fee" is due <script>alert(2)</script> before the fifth\n`));
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });

  // The words are in the texts, not the names: wait for the text jobs (through the API).
  await expect
    .poll(async () => (await (await request.get(`/api/folder/${root}?recursive=1&global=1&in_content=1&search_label=fee`, { headers })).json()).files?.length ?? 0, { timeout: 30_000 })
    .toBe(2);

  await signIn(page, user.password, user.login);
  await expect(page).toHaveURL("/");
  await page.getByRole("navigation").getByRole("link", { name: "My files" }).click();
  await page.getByRole("button", { name: "Filters" }).click();
  await page.getByLabel("Also in file contents").check();
  await page.getByLabel("Search by name").fill('"service fee" -draft');

  const pdf = row(page, "lease.pdf");
  await expect(pdf).toBeVisible();
  await expect(pdf.getByText(`/${folderName}`, { exact: false })).toBeVisible();
  await expect(pdf.getByText("page 1")).toBeVisible();
  await expect(pdf.getByTestId("search-snippet")).toContainText("The tenant pays the service fee monthly");
  await expect(pdf.locator("mark")).toHaveText(["service", "fee"]);
  const notes = row(page, "notes.txt");
  await expect(notes.locator("mark")).toHaveText(["service", "fee"]);
  await expect(notes.getByTestId("search-snippet")).toContainText("the service fee");
  await expect(notes.locator("img, script")).toHaveCount(0);
  await screenshot(page, "search-content-snippets");
  // On a phone and a tablet the path, the page and the snippet keep their lines.
  for (const [width, name] of [[390, "phone"], [768, "tablet"]] as const) {
    await page.setViewportSize({ width, height: 844 });
    await expect(pdf.getByTestId("search-snippet")).toBeVisible();
    await expect(pdf.getByText("page 1")).toBeVisible();
    await screenshot(page, `search-content-snippets-${name}`);
  }
  await page.setViewportSize({ width: 1280, height: 720 });

  // Keyboard: the type filter is a select reached by Tab; PDFs only.
  await page.getByLabel("Type").focus();
  await page.getByLabel("Type").selectOption("pdf");
  await expect(notes).toHaveCount(0);
  await expect(pdf).toBeVisible();
  await screenshot(page, "search-type-pdf");
  expect(dialogs).toEqual([]);
});

test("a scan is read for search: its details say so and offer the searchable PDF, which has a text layer", async ({ page, request }) => {
  const user = await createUser(request, { firstname: "Ada", lastname: "Lovelace" });
  const { token } = await (await request.post("/api/auth", { data: { user: user.login, password: user.password } })).json();
  const headers = { Authorization: `Bearer ${token}` };
  const roots = await (await request.get("/api/roots", { headers })).json();
  const root = roots.find((r: { type: string }) => r.type === "private").id;
  const uploaded = await request.post("/api/file/upload", {
    headers,
    multipart: { folderId: String(root), targetFile: { name: "receipt-scan.pdf", mimeType: "application/pdf", buffer: await scannedPdf(["Receipt for the harpsichord", "Paid in full"]) } },
  });
  expect(uploaded.status()).toBe(201);
  const file = (await uploaded.json()) as { id: number };
  // OCR runs in its own job lane: wait for the text through the API.
  await expect.poll(async () => (await (await request.get(`/api/file/${file.id}/text`, { headers })).json()).state, { timeout: 120_000 }).toBe("available");

  await signIn(page, user.password, user.login);
  await page.getByRole("navigation").getByRole("link", { name: "My files" }).click();
  await row(page, "receipt-scan.pdf").click();
  await page.getByRole("toolbar", { name: "Actions" }).getByRole("button", { name: "Details" }).click();
  const status = page.getByTestId("file-text");
  await expect(status).toContainText("Content searchable");
  const link = status.getByRole("link", { name: "Download searchable PDF" });
  await expect(link).toBeVisible();
  await screenshot(page, "details-searchable-scan");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(link).toBeVisible();
  await screenshot(page, "details-searchable-scan-phone");
  const searchable = await request.get((await link.getAttribute("href"))!, { headers });
  expect(searchable.status()).toBe(200);
  expect((await searchable.body()).subarray(0, 5).toString()).toBe("%PDF-");
});
