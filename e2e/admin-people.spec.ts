import AxeBuilder from "@axe-core/playwright";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { adminApi, screenshot, signIn, signInAsAdmin } from "./helpers";

const suffix = () => Math.random().toString(36).slice(2, 7);

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}

/** Seeds through the REST API as the administrator; `as` acts as another user (AsId). */
async function seed(request: APIRequestContext) {
  const { headers, end } = await adminApi(request);
  const post = async (path: string, data: unknown, as?: string) => {
    const response = await request.post(path, { headers: { ...headers, ...(as ? { AsId: as } : {}) }, data });
    expect(response.status(), `${path}: ${await response.text()}`).toBe(201);
    return response.json();
  };
  const get = async (path: string) => (await request.get(path, { headers })).json();
  return { post, get, end };
}

test("an administrator creates a user with a quota and a group, acts as them and back, and meets the lock-out guard", async ({ page, request }) => {
  const id = suffix();
  const api = await seed(request);
  const group = await api.post("/api/group", { login: `Finance ${id}`, members: [] });
  const me = await api.get("/api/account");

  await signInAsAdmin(page);
  await page.goto("/admin/users");
  await expect(page.getByRole("heading", { level: 1, name: "Users" })).toBeVisible();

  // Create: login, names, email, role, group, quota, first password.
  await page.getByRole("button", { name: "New user" }).click();
  const dialog = page.getByRole("dialog", { name: "New user" });
  await expect(dialog).toBeVisible();
  const login = `ada_${id}`;
  await dialog.getByLabel("Login", { exact: true }).fill(login);
  await dialog.getByLabel("First name", { exact: true }).fill("Ada");
  await dialog.getByLabel("Last name", { exact: true }).fill(`Lovelace ${id}`);
  await dialog.getByLabel("Email", { exact: true }).fill(`ada_${id}@example.test`);
  await dialog.getByLabel("Role", { exact: true }).selectOption({ label: "User" });
  await dialog.getByLabel("Quota (GB)", { exact: true }).fill("2");
  await dialog.getByRole("checkbox", { name: group.login }).check();
  await dialog.getByLabel("Password", { exact: true }).fill("Ada-first-pass-42");
  expect(await seriousViolations(page), "create dialog").toEqual([]);
  await screenshot(page, "admin-user-create");
  await dialog.getByRole("button", { name: "Create" }).click();
  await expect(dialog).toBeHidden();

  const name = `Ada Lovelace ${id}`;
  await page.getByRole("searchbox", { name: "Search" }).fill(login);
  const row = page.getByRole("row").filter({ hasText: login });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("2 GB");
  await expect(row).toContainText(group.login);
  await expect(row).toContainText("User");
  await screenshot(page, "admin-users");
  expect(await seriousViolations(page), "/admin/users").toEqual([]);

  // The API agrees: quota in bytes, member of the group.
  const [created] = (await api.get(`/api/users?keyword=${login}`)).objects;
  expect(created.quota).toBe(2 * 1024 ** 3);
  expect(created.groups.map((g: { login: string }) => g.login)).toEqual([group.login]);
  const folder = await api.post("/api/folder", { name: `Ada's notes ${id}`, parent_id: created.roots[0] }, created.id);

  // Act as: every call carries AsId, the banner says so on every page, the files are Ada's.
  await row.getByRole("button", { name: `Act as ${name}` }).click();
  await expect(page).toHaveURL("/files");
  const banner = page.getByTestId("acting-banner");
  await expect(banner).toContainText(`You are acting as ${name}`);
  await expect(page.getByText(folder.name)).toBeVisible();
  await expect(page.getByTestId("user-name")).toHaveText(name);
  await screenshot(page, "admin-acting-as");
  await page.goto("/recent");
  await expect(banner).toBeVisible();
  expect(await seriousViolations(page), "acting banner").toEqual([]);

  // Stop: back to oneself in the console.
  await banner.getByRole("button", { name: "Stop" }).click();
  await expect(page).toHaveURL("/admin/users");
  await expect(page.getByTestId("acting-banner")).toHaveCount(0);
  await expect(page.getByTestId("user-name")).toHaveText("Administrator");
  await page.goto("/files");
  await expect(page.getByText(folder.name)).toHaveCount(0);

  // Password: a new one set by the administrator (Ada's sessions end), then deactivate and activate.
  await page.goto("/admin/users");
  await page.getByRole("searchbox", { name: "Search" }).fill(login);
  await expect(page.getByRole("row")).toHaveCount(2);
  await row.getByRole("button", { name: `More actions for ${name}` }).click();
  await page.getByRole("menuitem", { name: "Reset the password" }).click();
  const password = page.getByRole("dialog", { name: `Password of ${name}` });
  await password.getByLabel("New password", { exact: true }).fill("Ada-second-pass-42");
  await password.getByRole("button", { name: "Reset" }).click();
  await expect(page.getByText(`The password of ${name} was changed.`)).toBeVisible();
  await row.getByRole("button", { name: `More actions for ${name}` }).click();
  await page.getByRole("menuitem", { name: "Deactivate" }).click();
  await page.getByRole("dialog", { name: `Deactivate ${name}?` }).getByRole("button", { name: "Deactivate" }).click();
  await expect(row).toContainText("Deactivated");
  expect((await api.get(`/api/user/${created.id}`)).active).toBe(false);
  await row.getByRole("button", { name: `More actions for ${name}` }).click();
  await page.getByRole("menuitem", { name: "Activate" }).click();
  await expect(row).not.toContainText("Deactivated");

  // An IP rule for Ada, with the lock-out guard explained on the form.
  await page.goto(`/admin/options?target=${created.id}`);
  await expect(page.getByRole("heading", { name: `Options of ${name}` })).toBeVisible();
  await expect(page.getByTestId("lockout-rule")).toContainText("no active administrator could still connect");
  await page.getByRole("checkbox", { name: "Only allow these addresses" }).check();
  await page.getByLabel(/One IPv4 or IPv6 address/).fill("192.0.2.0/24\n2001:db8::/32");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("The connection options were saved.")).toBeVisible();
  const options = await api.get(`/api/option/${created.id}`);
  expect(options.ips).toEqual(["192.0.2.0/24", "2001:db8::/32"]);
  expect(await seriousViolations(page), "/admin/options").toEqual([]);

  // The same rule on the only administrator would lock everyone out: refused (409) and explained.
  await page.goto(`/admin/options?target=${me.id}`);
  await page.getByRole("checkbox", { name: "Only allow these addresses" }).check();
  await page.getByLabel(/One IPv4 or IPv6 address/).fill("192.0.2.0/24");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Not applied" })).toContainText("no active administrator could connect from your current address");
  await expect(page.getByTestId("lockout-explained")).toBeVisible();
  expect((await api.get(`/api/option/${me.id}`)).ips).toBeNull();
  await screenshot(page, "admin-options-lockout", { fullPage: true });

  // Demoting the last administrator is refused with the server's reason, shown in the form.
  await page.goto("/admin/users");
  await page.getByRole("searchbox", { name: "Search" }).fill("admin");
  await page.getByRole("button", { name: "More actions for Administrator" }).click();
  const menu = page.getByRole("menu", { name: "More actions for Administrator" });
  await expect(menu.getByRole("menuitem", { name: "Reset the password" })).toBeVisible();
  // One does not delete or deactivate oneself.
  await expect(menu.getByRole("menuitem", { name: "Delete" })).toHaveCount(0);
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  // By keyboard: the focus is back on the button, Enter opens the menu on its first item, the arrows move, Escape closes.
  const more = page.getByRole("button", { name: "More actions for Administrator" });
  await expect(more).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(menu.getByRole("menuitem").first()).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(menu.getByRole("menuitem").nth(1)).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  await expect(more).toBeFocused();
  await page.getByRole("button", { name: "Edit Administrator" }).click();
  const edit = page.getByRole("dialog", { name: "Edit admin" });
  await edit.getByLabel("Role", { exact: true }).selectOption({ label: "User" });
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(edit.getByRole("alert")).toContainText("last active administrator");
  await edit.getByRole("button", { name: "Cancel" }).click();
  expect((await api.get(`/api/user/${me.id}`)).role).toBe(3);
  await api.end();
});

test("groups and invitations are listed, edited, and have no serious accessibility violation", async ({ page, request }) => {
  const id = suffix();
  const api = await seed(request);
  const member = await api.post("/api/user", { login: `grace_${id}`, password: "Grace-pass-42", firstname: "Grace", lastname: `Hopper ${id}`, role: 2 });
  const roots = await api.get("/api/roots");
  const privateRoot = roots.find((r: { type: string }) => r.type === "private");
  const folder = await api.post("/api/folder", { name: `Invited ${id}`, parent_id: privateRoot.id });
  const email = `guest_${id}@example.test`;
  await api.post("/api/invite", { target: email, folder: folder.id, rights: 1 });

  await signInAsAdmin(page);
  await page.goto("/admin/groups");
  await page.getByRole("button", { name: "New group" }).click();
  const dialog = page.getByRole("dialog", { name: "New group" });
  await dialog.getByLabel("Name", { exact: true }).fill(`Research ${id}`);
  await dialog.getByRole("group", { name: "Members" }).getByLabel("Add a person").fill(`grace_${id}`);
  await dialog.getByRole("button", { name: new RegExp(`Grace Hopper ${id}`) }).click();
  await expect(dialog.getByRole("button", { name: `Remove Grace Hopper ${id}` })).toBeVisible();
  expect(await seriousViolations(page), "group dialog").toEqual([]);
  await dialog.getByRole("button", { name: "Create" }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole("searchbox", { name: "Search" }).fill(`Research ${id}`);
  await expect(page.getByRole("row")).toHaveCount(2);
  await expect(page.getByRole("row").filter({ hasText: `Research ${id}` })).toContainText("1");
  expect((await api.get(`/api/user/${member.id}`)).groups.map((g: { login: string }) => g.login)).toEqual([`Research ${id}`]);
  await screenshot(page, "admin-groups");
  expect(await seriousViolations(page), "/admin/groups").toEqual([]);

  await page.goto("/admin/invitations");
  const row = page.getByRole("row").filter({ hasText: email });
  await expect(row).toContainText("Waiting");
  await row.getByRole("button", { name: `Edit the invitation of ${email}` }).click();
  const edit = page.getByRole("dialog", { name: `Invitation of ${email}` });
  await edit.getByRole("checkbox", { name: "Download" }).check();
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(edit).toBeHidden();
  await expect(row).toContainText("Read, Download");
  await screenshot(page, "admin-invitations");
  expect(await seriousViolations(page), "/admin/invitations").toEqual([]);
  await row.getByRole("button", { name: `Delete the invitation of ${email}` }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
  await expect(page.getByRole("row").filter({ hasText: email })).toHaveCount(0);
  await api.end();
});

test("a manager sees only the users of the groups they manage and cannot give the administrator or manager roles", async ({ page, request }) => {
  const id = suffix();
  const api = await seed(request);
  const password = "Manager-pass-42";
  const manager = await api.post("/api/user", { login: `mgr_${id}`, password, firstname: "Mona", lastname: `Manager ${id}`, role: 4 });
  const mine = await api.post("/api/user", { login: `mine_${id}`, password: "User-pass-42", firstname: "Mina", lastname: `Member ${id}`, role: 2 });
  const other = await api.post("/api/user", { login: `other_${id}`, password: "User-pass-42", firstname: "Otto", lastname: `Outsider ${id}`, role: 2 });
  await api.post("/api/group", { login: `Sales ${id}`, members: [mine.id], managers: [manager.id] });
  await api.post("/api/group", { login: `Legal ${id}`, members: [other.id] });
  await api.end();

  await signIn(page, password, manager.login);
  await expect(page).toHaveURL("/");
  await page.goto("/admin/users");
  await expect(page.getByRole("heading", { level: 1, name: "Users" })).toBeVisible();
  const table = page.getByTestId("users-table");
  await expect(table).toContainText(mine.login);
  await expect(table).not.toContainText(other.login);
  await expect(table).not.toContainText("admin");
  await screenshot(page, "admin-users-manager");
  expect(await seriousViolations(page), "/admin/users as a manager").toEqual([]);

  await page.getByRole("button", { name: "New user" }).click();
  const roles = page.getByRole("dialog", { name: "New user" }).getByLabel("Role", { exact: true }).locator("option");
  await expect(roles).toHaveText(["External user", "User"]);
});
