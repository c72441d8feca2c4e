import { randomBytes } from "node:crypto";
import { expect, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { ADMIN } from "./env";

export async function signIn(page: Page, password = ADMIN.password, login = ADMIN.login) {
  await page.goto("/login");
  await page.getByLabel("Login", { exact: true }).fill(login);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

export async function signInAsAdmin(page: Page) {
  await signIn(page);
  await expect(page).toHaveURL("/");
  await expect(page.getByTestId("user-name")).toHaveText(ADMIN.name);
}

/** The end state of a journey, kept in e2e/screenshots (style.md: one per journey). */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean; show?: Locator } = {}) {
  await page.mouse.move(0, 0);
  // A reload restores the scroll position: start at the top, or at the part the journey ended on.
  if (options.show) await options.show.scrollIntoViewIfNeeded();
  else await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `e2e/screenshots/${name}.png`, fullPage: options.fullPage ?? false });
}

/** A fresh user made through the REST API with the administrator's bearer token (no browser cookie involved). */
export async function createUser(request: APIRequestContext, fields: Record<string, unknown> = {}) {
  const auth = await request.post("/api/auth", { data: { user: ADMIN.login, password: ADMIN.password } });
  const { token } = await auth.json();
  const login = `e2e_${randomBytes(4).toString("hex")}`;
  const user = { login, password: "Journey-pass-42", firstname: "Grace", lastname: "Hopper", role: 2, ...fields };
  const created = await request.post("/api/user", { headers: { Authorization: `Bearer ${token}` }, data: user });
  expect(created.status()).toBe(201);
  await request.delete("/api/auth", { headers: { Authorization: `Bearer ${token}` } });
  return user;
}

/** The administrator's bearer token for seeding through the REST API; `end` signs it out. */
export async function adminApi(request: APIRequestContext) {
  const auth = await request.post("/api/auth", { data: { user: ADMIN.login, password: ADMIN.password } });
  const { token } = await auth.json();
  const headers = { Authorization: `Bearer ${token}` };
  return { headers, end: () => request.delete("/api/auth", { headers }) };
}

export type SeedFile = string | { name: string; mimeType: string; buffer: Buffer };

/** A folder in the administrator's private space with these files, so each journey starts from its own data. */
export async function seedFolder(request: APIRequestContext, name: string, files: SeedFile[]) {
  const { headers, end } = await adminApi(request);
  const roots = await (await request.get("/api/roots", { headers })).json();
  const privateRoot = roots.find((r: { type: string }) => r.type === "private");
  const created = await request.post("/api/folder", { headers, data: { name, parent_id: privateRoot.id } });
  expect(created.status()).toBe(201);
  const folder = await created.json();
  for (const file of files) {
    const targetFile = typeof file === "string" ? { name: file, mimeType: "text/plain", buffer: Buffer.from(`content of ${file}\n`) } : file;
    const uploaded = await request.post("/api/file/upload", { headers, multipart: { folderId: String(folder.id), targetFile } });
    expect(uploaded.status()).toBe(201);
  }
  await end();
  return folder as { id: number; name: string };
}

/**
 * My files newest first (Modified, descending): in the full run it holds every journey's folders,
 * more than the list renders, and a journey's own folder is the newest.
 */
export async function newestFirst(page: Page) {
  const modified = page.getByRole("button", { name: "Sort by Modified" });
  const header = page.getByRole("columnheader").filter({ has: modified });
  await modified.click();
  await expect(header).toHaveAttribute("aria-sort", "ascending");
  await modified.click();
  await expect(header).toHaveAttribute("aria-sort", "descending");
}
