import { readFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { pdfWithText, solidPng } from "./fixtures";
import { adminApi, createUser, screenshot, seedFolder, signIn, signInAsAdmin } from "./helpers";
import { receivedMails, refuseMailTo } from "./mailbox";

/** axe-core's serious and critical findings on the page as it is now. */
async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}

const suffix = () => Math.random().toString(36).slice(2, 8);

test("an administrator reads the dashboard, resends a refused mail, filters and exports the logs, switches a feature off", async ({ page, request }) => {
  test.setTimeout(180_000);
  // Data for the dashboard: files uploaded, one downloaded; an invitation to an address the mail server refuses.
  const refused = `refused-${suffix()}@example.test`;
  refuseMailTo(refused);
  const folder = await seedFolder(request, `Console ${suffix()}`, ["report.txt", "notes.txt"]);
  const api = await adminApi(request);
  const uploaded = await request.post("/api/file/upload", { headers: api.headers, multipart: { folderId: String(folder.id), targetFile: { name: "big.bin", mimeType: "application/octet-stream", buffer: Buffer.alloc(300_000, 7) } } });
  expect(uploaded.status()).toBe(201);
  const file = await uploaded.json();
  expect((await request.get(`/api/file/${file.id}/download`, { headers: api.headers })).status()).toBe(200);
  expect((await request.post("/api/invite", { headers: api.headers, data: { target: refused, folder: folder.id, rights: 1 } })).status()).toBe(201);
  // Today's sample: taken by the hourly job, or by the first statistics request of the day.
  await expect
    .poll(async () => ((await (await request.get("/api/stats?mask=32", { headers: api.headers })).json()).stats?.days ?? []).length, { timeout: 60_000, intervals: [2000] })
    .toBeGreaterThan(0);

  // Dashboard, reached from the application's navigation.
  await signInAsAdmin(page);
  await page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Administration" }).click();
  await expect(page).toHaveURL("/admin");
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  await expect(page.getByRole("img", { name: "Storage used over time" })).toBeVisible();
  await expect(page.getByRole("img", { name: "Uploads and downloads per day" })).toBeVisible();
  const largest = page.getByRole("region", { name: "Largest users" });
  await expect(largest.getByRole("row").filter({ hasText: "Administrator" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Key figures" }).getByText("Storage used", { exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "failed jobs" })).toBeVisible();
  expect(await seriousViolations(page), "dashboard").toEqual([]);
  await screenshot(page, "admin-dashboard", { fullPage: true });

  // Mail: the invitation was refused by the server; once the address works again, send it again.
  await page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Mail" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Mail" })).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: refused });
  await expect(async () => {
    await page.reload();
    await expect(row.getByText(/Refused/)).toBeVisible({ timeout: 1500 });
  }).toPass({ timeout: 30_000 });
  await expect(row.getByText(/mailbox unavailable/)).toBeVisible();
  expect(await seriousViolations(page), "mail").toEqual([]);
  await screenshot(page, "admin-mail-refused");
  refuseMailTo(refused, false);
  await row.getByRole("button", { name: `Send the mail to ${refused} again` }).click();
  await expect(page.getByText(`The mail to ${refused} is queued again.`)).toBeVisible();
  await expect.poll(() => receivedMails().some((m) => m.to.includes(refused)), { timeout: 30_000 }).toBe(true);
  await page.getByRole("button", { name: "Sent", exact: true }).click();
  await expect(async () => {
    await page.reload();
    await page.getByRole("button", { name: "Sent", exact: true }).click();
    await expect(page.getByRole("row").filter({ hasText: refused })).toBeVisible({ timeout: 1500 });
  }).toPass({ timeout: 20_000 });
  for (const tab of ["Alert templates", "Text messages"]) {
    await page.getByRole("button", { name: tab }).click();
    await expect(page.getByText("Loading…")).toHaveCount(0);
    expect(await seriousViolations(page), tab).toEqual([]);
  }

  // Logs: the resend is recorded; filter on it, read it, export what the filters keep.
  await page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Logs" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Logs" })).toBeVisible();
  await page.getByLabel("Type", { exact: true }).selectOption("ADMLLOG_UPDATE");
  await page.getByLabel("Object type").selectOption("email");
  await page.getByRole("button", { name: "Filter", exact: true }).click();
  const entry = page.getByRole("row").filter({ hasText: "Administrator changed the mail" });
  await expect(entry).toBeVisible();
  await expect(page.getByRole("row")).toHaveCount(2);
  await entry.getByRole("button", { name: /Details of entry/ }).click();
  const detail = page.getByRole("dialog");
  await expect(detail.getByText(`Queued the mail`, { exact: false })).toBeVisible();
  expect(await seriousViolations(page), "log detail").toEqual([]);
  await page.keyboard.press("Escape");
  await expect(detail).toBeHidden();
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export as CSV" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^logs-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync((await download.path())!, "utf8").replace(/^\uFEFF/, "");
  const lines = csv.trim().split("\r\n");
  expect(lines[0]).toBe('"id","date","user_id","user","type","statut","message","object_type","object_id","object","ip","user_agent"');
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(`to ${refused} again`);
  expect(lines[1]).toContain('"ADMLLOG_UPDATE"');
  expect(await seriousViolations(page), "logs").toEqual([]);
  await screenshot(page, "admin-logs-filtered");

  // Configuration: switch share links off; the server refuses them at once; switch them back on.
  const share = () => request.post("/api/share", { headers: api.headers, data: { roots: [{ id: folder.id, entity_type: 0 }], flags: 4 } });
  await page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Configuration" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Configuration" })).toBeVisible();
  const features = page.getByRole("region", { name: "Features" });
  await features.getByLabel("Share links").uncheck();
  await features.getByRole("button", { name: "Save" }).click();
  await expect(features.getByText("Saved.")).toBeVisible();
  expect((await share()).status()).toBe(403);
  await page.reload();
  await expect(page.getByRole("region", { name: "Features" }).getByLabel("Share links")).not.toBeChecked();
  expect(await seriousViolations(page), "config").toEqual([]);
  await screenshot(page, "admin-config-feature-off", { show: page.getByRole("region", { name: "Features" }) });
  await page.getByRole("region", { name: "Features" }).getByLabel("Share links").check();
  await page.getByRole("region", { name: "Features" }).getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("region", { name: "Features" }).getByText("Saved.")).toBeVisible();
  expect((await share()).status()).toBe(201);

  // SMTP test: the server's own answer is shown.
  const smtp = page.getByRole("region", { name: "Outgoing mail (SMTP)" });
  await smtp.getByLabel("Server", { exact: true }).fill("127.0.0.1");
  await smtp.getByLabel("Port", { exact: true }).fill("1");
  await smtp.getByLabel("Send the test to").fill("someone@example.test");
  await smtp.getByRole("button", { name: "Send a test mail" }).click();
  await expect(smtp.getByText("The test failed")).toBeVisible({ timeout: 20_000 });
  await expect(smtp.getByText(/ECONNREFUSED/).first()).toBeVisible();

  // Jobs.
  await page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Jobs" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Jobs" })).toBeVisible();
  await page.getByRole("button", { name: "Done", exact: true }).click();
  // The delivery of the mail sent again above is one of the jobs done.
  await expect(page.getByRole("row").filter({ hasText: "mail.send" }).first()).toBeVisible();
  expect(await seriousViolations(page), "jobs").toEqual([]);
  await screenshot(page, "admin-jobs");
  await api.end();
});

test("a manager sees only the people screens; other users get the 403 screen", async ({ page, request }) => {
  const manager = await createUser(request, { role: 4, firstname: "Mona", lastname: "Manager" });
  await signIn(page, manager.password, manager.login);
  await expect(page).toHaveURL("/");
  await page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Administration" }).click();
  await expect(page).toHaveURL(/\/admin\/users$/);
  await page.goto("/admin/logs");
  const nav = page.getByRole("navigation", { name: "Main navigation" });
  for (const name of ["Users", "Groups", "Invitations", "Connection options"]) await expect(nav.getByRole("link", { name })).toBeVisible();
  for (const name of ["Dashboard", "Mail", "Logs", "Jobs", "Configuration"]) await expect(nav.getByRole("link", { name })).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 1, name: "Administrators only" })).toBeVisible();
  expect(await seriousViolations(page), "manager on logs").toEqual([]);

  const user = await createUser(request);
  await page.context().clearCookies();
  await signIn(page, user.password, user.login);
  await expect(page).toHaveURL("/");
  await expect(page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Administration" })).toHaveCount(0);
  await page.goto("/admin");
  await expect(page.getByRole("heading", { level: 1, name: "Administrators only" })).toBeVisible();
  await screenshot(page, "admin-forbidden");
});

test("the console is behind the sign-in", async ({ page }) => {
  await page.goto("/admin/logs");
  await expect(page).toHaveURL(/\/login/);
});

test("the public share page shows thumbnails beside the names, and a file icon where there is none", async ({ page, request }) => {
  const folder = await seedFolder(request, `Thumbs ${suffix()}`, [
    "notes.txt",
    { name: "photo.png", mimeType: "image/png", buffer: await solidPng(320, 200, [30, 120, 200]) },
    { name: "figures.pdf", mimeType: "application/pdf", buffer: pdfWithText("Figures") },
  ]);
  const { headers, end } = await adminApi(request);
  const share = await (await request.post("/api/share", { headers, data: { roots: [{ id: folder.id, entity_type: 0 }], flags: 4 } })).json();
  await end();
  await page.goto(new URL(share.url).pathname);
  await page.getByRole("button", { name: folder.name }).click();
  const item = (name: string) => page.getByTestId("shared-item").filter({ hasText: name });
  // The image's thumbnail loads, beside (left of, same line as) its name.
  const thumb = item("photo.png").locator("img");
  await expect(thumb).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  const [imgBox, nameBox] = await Promise.all([thumb.boundingBox(), item("photo.png").getByText("photo.png", { exact: true }).boundingBox()]);
  expect(imgBox!.x + imgBox!.width).toBeLessThanOrEqual(nameBox!.x);
  expect(Math.abs(imgBox!.y + imgBox!.height / 2 - (nameBox!.y + nameBox!.height / 2))).toBeLessThan(12);
  // A file without a thumbnail never shows a broken image.
  await expect(item("notes.txt").locator("img")).toHaveCount(0);
  const broken = await page.locator("img").evaluateAll((imgs) => imgs.filter((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth === 0 && getComputedStyle(i).opacity !== "0").length);
  expect(broken).toBe(0);
  await screenshot(page, "share-page-thumbnails");
});
