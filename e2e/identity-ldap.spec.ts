import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { startSlapd, type Slapd } from "../tests/helpers/slapd";
import { adminApi, screenshot, signIn, signInAsAdmin } from "./helpers";

/** axe-core's serious and critical findings on the page as it is now. */
async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}

let slapd: Slapd;
test.beforeAll(async () => {
  slapd = await startSlapd();
});
test.afterAll(async ({ request }) => {
  // Leave no provider pointing at a directory that is about to stop.
  const api = await adminApi(request);
  const list = await (await request.get("/api/identity/providers", { headers: api.headers })).json();
  for (const p of list.objects ?? []) await request.delete(`/api/identity/provider/${p.id}`, { headers: api.headers });
  await api.end();
  await slapd?.close();
});

test("an administrator adds an LDAP directory in the console, tests and synchronises it; a directory person signs in on the web", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const name = `Corporate directory ${slapd.prefix}`;
  const [alice] = slapd.people;

  await signInAsAdmin(page);
  await page.goto("/admin");
  await page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Identity providers" }).click();
  await expect(page).toHaveURL("/admin/identity");
  await expect(page.getByRole("heading", { level: 1, name: "Identity providers" })).toBeVisible();

  // The form: a wrong password first, tested before saving.
  await page.getByRole("button", { name: "Add a provider" }).click();
  const dialog = page.getByRole("dialog", { name: "Add an identity provider" });
  await expect(dialog.getByLabel("Type")).toHaveValue("ldap");
  await dialog.getByLabel("Name", { exact: true }).fill(name);
  await dialog.getByLabel("Servers").fill(slapd.url);
  await dialog.getByLabel("Base DN").fill(slapd.baseDN);
  await dialog.getByLabel("Service account (bind DN)").fill(slapd.serviceDN);
  await dialog.getByLabel("Service account password").fill("not-the-password");
  await dialog.getByRole("checkbox", { name: "Include nested groups" }).check();
  await dialog.getByRole("button", { name: "Test these settings" }).click();
  await expect(dialog.getByRole("alert")).toContainText("wrong username or password");
  await dialog.getByLabel("Service account password").fill(slapd.servicePassword);
  await dialog.getByRole("button", { name: "Test these settings" }).click();
  await expect(dialog.getByRole("status")).toContainText(`${name}: the connection works.`);
  // Keyboard: Enter in a field submits the form.
  await dialog.getByLabel("Base DN").press("Enter");
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`${name} was saved.`)).toBeVisible();

  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row.getByRole("cell", { name: "LDAP", exact: true })).toBeVisible();
  await expect(row.getByText("Not synchronised yet")).toBeVisible();
  await row.getByRole("button", { name: `Test ${name}` }).click();
  await expect(row.getByRole("status")).toHaveText(`${name}: the connection works.`);
  await row.getByRole("button", { name: `Synchronise ${name} now` }).click();
  await expect(row.getByRole("status")).toContainText(`${name} synchronised: 3 created, 0 updated, 0 deactivated.`, { timeout: 30_000 });
  await expect(row.getByText("Working")).toBeVisible();
  expect(await seriousViolations(page), "identity providers").toEqual([]);
  await screenshot(page, "admin-identity-providers");

  // The password is never sent back: editing shows it as stored.
  await row.getByRole("button", { name: `Edit ${name}` }).click();
  const edit = page.getByRole("dialog", { name: `Edit ${name}` });
  await expect(edit.getByLabel("Service account password")).toHaveValue("");
  await expect(edit.getByText("Stored. Leave empty to keep it.")).toBeVisible();
  expect(await page.content()).not.toContain(slapd.servicePassword);
  await edit.getByRole("button", { name: "Test these settings" }).click();
  await expect(edit.getByRole("status")).toContainText("the connection works");
  await edit.getByRole("button", { name: "Cancel" }).click();

  // A directory person signs in on the web sign-in page with the directory password.
  const context = await browser.newContext();
  const visitor = await context.newPage();
  await signIn(visitor, "wrong-password", alice.uid);
  await expect(visitor.getByText("Wrong login or password.")).toBeVisible();
  await signIn(visitor, alice.password, alice.uid);
  await expect(visitor).toHaveURL("/");
  await expect(visitor.getByTestId("user-name")).toHaveText("Alice Martin");
  await screenshot(visitor, "identity-ldap-signed-in");
  await context.close();
});
