import { expect, test, type Page } from "@playwright/test";
import { adminApi, screenshot, seedFolder, signInAsAdmin } from "./helpers";

const suffix = () => Math.random().toString(36).slice(2, 7);
const row = (page: Page, name: string) => page.getByRole("row").filter({ has: page.getByText(name, { exact: true }) });

/** Opens a row's menu (the ⋯ button) and picks `action`. */
async function fromMenu(page: Page, name: string, action: string) {
  await row(page, name).getByRole("button", { name: `More actions for ${name}` }).click();
  await page.getByRole("menuitem", { name: action }).click();
}

test("a file becomes a template, and a new file is made from it in a sub-folder", async ({ page, request }) => {
  const id = suffix();
  const folder = await seedFolder(request, `Models ${id}`, ["letter.txt"]);
  const { headers, end } = await adminApi(request);
  const sub = await (await request.post("/api/folder", { headers, data: { name: "Clients", parent_id: folder.id } })).json();
  await signInAsAdmin(page);
  await page.goto(`/files/${folder.id}`);
  await expect(page.getByRole("grid")).toBeVisible();

  await fromMenu(page, "letter.txt", "Make a template");
  const make = page.getByRole("dialog", { name: "Make a template of letter.txt" });
  await make.getByLabel("Template name").fill(`Letter ${id}.txt`);
  await make.getByLabel("Description").fill("The usual letter to a customer");
  await make.getByRole("button", { name: "Make the template" }).click();
  await expect(page.getByText("Template saved")).toBeVisible();

  // Below the folder, the template is offered.
  await page.goto(`/files/${sub.id}`);
  await page.getByRole("button", { name: "New from template" }).click();
  const dialog = page.getByRole("dialog", { name: "New file from a template" });
  await dialog.getByRole("radio", { name: new RegExp(`Letter ${id}\\.txt`) }).check();
  await expect(dialog.getByLabel("Name", { exact: true })).toHaveValue(`Letter ${id}.txt`);
  await dialog.getByLabel("Name", { exact: true }).fill("Letter to ACME.txt");
  await screenshot(page, "template-new-file-dialog");
  await dialog.getByRole("button", { name: "Create" }).click();
  await expect(page.getByText("Letter to ACME.txt was created from the template.")).toBeVisible();
  await expect(row(page, "Letter to ACME.txt")).toBeVisible();

  // The new file holds the template's bytes.
  const listing = await (await request.get(`/api/folder/${sub.id}?depth=0`, { headers })).json();
  const made = listing.content.files.find((f: { name: string }) => f.name === "Letter to ACME.txt");
  expect(await (await request.get(`/api/file/${made.id}/download`, { headers })).text()).toBe("content of letter.txt\n");
  await end();
  await screenshot(page, "template-file-created");
});
