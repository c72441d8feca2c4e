import { expect, test, type Page } from "@playwright/test";
import { adminApi, screenshot, seedFolder, signInAsAdmin } from "./helpers";

const suffix = () => Math.random().toString(36).slice(2, 7);
const row = (page: Page, name: string) => page.getByRole("row").filter({ has: page.getByText(name, { exact: true }) });

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

async function addTag(page: Page, fileName: string, tagName: string, options: { private?: boolean } = {}) {
  const panel = await openDetails(page, fileName);
  const editor = panel.getByTestId("tag-editor");
  await editor.getByLabel("Add a tag").fill(tagName);
  if (options.private) await editor.getByLabel("Private").check();
  await editor.getByRole("button", { name: "Add" }).click();
  await expect(editor.getByTestId("tag-chip").filter({ hasText: tagName })).toBeVisible();
  return panel;
}

test("files are tagged from the details panel, show their tags as chips, and a search filters by tag", async ({ page, request }) => {
  const id = suffix();
  const folder = await seedFolder(request, `Tagging ${id}`, ["invoice-march.txt", "invoice-april.txt", "minutes.txt"]);
  const invoices = `Invoices ${id}`;
  const paid = `Paid ${id}`;
  await signInAsAdmin(page);
  await page.goto(`/files/${folder.id}`);
  await expect(page.getByRole("grid")).toBeVisible();

  await addTag(page, "invoice-march.txt", invoices);
  await addTag(page, "invoice-march.txt", paid, { private: true });
  const april = await addTag(page, "invoice-april.txt", invoices);
  // A tag can be taken off again.
  await april.getByRole("button", { name: `Remove the tag ${invoices}` }).click();
  await expect(april.getByText("No tags yet.")).toBeVisible();
  await april.getByLabel("Add a tag").fill(invoices);
  await april.getByRole("button", { name: "Add" }).click();
  await april.getByRole("button", { name: "Close the details" }).click();

  // An administrator's category gives the public tag its colour.
  const { headers, end } = await adminApi(request);
  const category = await (await request.post("/api/tag/category", { headers, data: { name: `Accounting ${id}`, color: "#1d7a46" } })).json();
  const tags = await (await request.get(`/api/tags?search=${encodeURIComponent(invoices)}`, { headers })).json();
  expect((await request.put(`/api/tag/${tags.objects[0].id}`, { headers, data: { category_id: category.id } })).status()).toBe(200);
  await end();
  await page.reload();

  // Chips in the list.
  await expect(row(page, "invoice-march.txt").getByTestId("tag-chip")).toHaveCount(2);
  await expect(row(page, "invoice-april.txt").getByTestId("tag-chip")).toHaveText([invoices]);
  await expect(row(page, "minutes.txt").getByTestId("tag-chip")).toHaveCount(0);
  await screenshot(page, "tags-chips");

  // The tag filter of the search: every tag picked must be there.
  await page.getByRole("button", { name: "Filters" }).click();
  const pick = page.getByRole("group", { name: "Tags" }).getByRole("combobox");
  await pick.selectOption({ label: invoices });
  await expect(page.getByRole("row").filter({ hasText: ".txt" })).toHaveCount(2);
  await pick.selectOption({ label: `${paid} (private)` });
  await expect(page.getByRole("row").filter({ hasText: ".txt" })).toHaveCount(1);
  await expect(row(page, "invoice-march.txt").getByTestId("tag-chip")).toHaveCount(2);
  await screenshot(page, "tags-filtered");
});
