import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { adminApi, createUser, newestFirst, screenshot, seedFolder, signInAsAdmin } from "./helpers";

const suffix = () => Math.random().toString(36).slice(2, 7);
const row = (page: Page, name: string) => page.getByRole("row").filter({ has: page.getByText(name, { exact: true }) });

/** A fresh user who gives the administrator read access to a folder of theirs holding one file. */
async function shareWithAdmin(request: APIRequestContext, folderName: string, fileName: string) {
  const admin = await adminApi(request);
  const me = await (await request.get("/api/account", { headers: admin.headers })).json();
  // Earlier journeys may have left notifications: the bell starts from none unread.
  expect((await request.put("/api/notifications/read", { headers: admin.headers })).status()).toBe(204);
  await admin.end();

  const grace = await createUser(request);
  const { token } = await (await request.post("/api/auth", { data: { user: grace.login, password: grace.password } })).json();
  const headers = { Authorization: `Bearer ${token}` };
  const roots = await (await request.get("/api/roots", { headers })).json();
  const privateRoot = roots.find((r: { type: string }) => r.type === "private");
  const folder = await (await request.post("/api/folder", { headers, data: { name: folderName, parent_id: privateRoot.id } })).json();
  const uploaded = await request.post("/api/file/upload", { headers, multipart: { folderId: String(folder.id), targetFile: { name: fileName, mimeType: "text/plain", buffer: Buffer.from("figures\n") } } });
  expect(uploaded.status()).toBe(201);
  const right = await request.post("/api/right", { headers, data: { folder_id: folder.id, target_id: me.id, browse: true, read: true, download: true } });
  expect(right.status()).toBe(201);
  return folder as { id: number };
}

for (const width of [1440, 390]) {
  test(`another user shares a folder with the administrator: the bell counts it, the panel leads to the file, the count goes back to 0 (${width} px)`, async ({ page, request }) => {
    await page.setViewportSize({ width, height: width > 500 ? 900 : 844 });
    const [folderName, fileName] = [`Q3 figures ${suffix()}`, `report-${suffix()}.txt`];
    const folder = await shareWithAdmin(request, folderName, fileName);
    await signInAsAdmin(page);

    const bell = page.getByRole("button", { name: "Notifications, 1 unread", exact: true });
    await expect(bell).toBeVisible();
    await bell.click();
    const panel = page.getByRole("dialog", { name: "Notifications", exact: true });
    await expect(panel).toBeVisible();
    // Escape closes it and gives the focus back to the bell.
    await page.keyboard.press("Escape");
    await expect(panel).toBeHidden();
    await expect(bell).toBeFocused();
    await page.keyboard.press("Enter");
    const entry = panel.getByRole("button", { name: `Grace Hopper shared ${folderName} with you` });
    await expect(entry).toBeVisible();
    await screenshot(page, `notifications-panel-${width}`);

    await entry.click();
    await expect(page).toHaveURL(`/files/${folder.id}`);
    await expect(row(page, fileName)).toBeVisible();
    await expect(page.getByRole("button", { name: "Notifications", exact: true })).toBeVisible();
    await page.getByRole("button", { name: "Notifications", exact: true }).click();
    await expect(panel.getByRole("button", { name: "Mark all read" })).toBeDisabled();
    await page.keyboard.press("Escape");
    await screenshot(page, `notifications-read-${width}`);
  });
}

test("Mark all read clears the count", async ({ page, request }) => {
  await shareWithAdmin(request, `Shared ${suffix()}`, "a.txt");
  await signInAsAdmin(page);
  await page.getByRole("button", { name: "Notifications, 1 unread", exact: true }).click();
  await page.getByRole("dialog", { name: "Notifications", exact: true }).getByRole("button", { name: "Mark all read" }).click();
  await expect(page.getByRole("button", { name: "Notifications", exact: true })).toBeVisible();
});

test("a folder and a file are starred from their menus, listed under Starred, and unstarred", async ({ page, request }) => {
  const fileName = `plan-${suffix()}.txt`;
  const folder = await seedFolder(request, `Starred ${suffix()}`, [fileName]);
  await signInAsAdmin(page);
  await page.goto("/files");
  await newestFirst(page);
  await row(page, folder.name).click({ button: "right" });
  await page.getByRole("menuitem", { name: "Add to starred", exact: true }).click();
  await page.goto(`/files/${folder.id}`);
  await row(page, fileName).click({ button: "right" });
  await page.getByRole("menuitem", { name: "Add to starred", exact: true }).click();

  const starred = page.getByRole("region", { name: "Starred", exact: true });
  await expect(starred.getByRole("link")).toHaveText([fileName, folder.name]);
  await screenshot(page, "stars-sidebar-1440");
  await starred.getByRole("link", { name: folder.name, exact: true }).click();
  await expect(page).toHaveURL(`/files/${folder.id}`);

  // The menu now offers to take the star off.
  await row(page, fileName).click({ button: "right" });
  await page.getByRole("menuitem", { name: "Unstar", exact: true }).click();
  await expect(starred.getByRole("link")).toHaveText([folder.name]);

  // On a phone the sidebar's section gives way to the Starred page.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole("link", { name: "Starred", exact: true }).click();
  await expect(page).toHaveURL("/starred");
  const list = page.getByRole("list", { name: "Starred", exact: true });
  await expect(list.getByRole("listitem")).toHaveCount(1);
  await expect(list).toContainText(folder.name);
  await screenshot(page, "stars-page-390");
  await list.getByRole("button", { name: `Unstar ${folder.name}`, exact: true }).click();
  await expect(page.getByText("Nothing starred yet.", { exact: false })).toBeVisible();
  await screenshot(page, "stars-page-empty-390");
});
