import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { adminApi, seedFolder, signInAsAdmin } from "./helpers";

/** axe-core's serious and critical findings on the page as it is now (issue: none on the main screens). */
async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}

test("the sign-in page has no serious accessibility violation", async ({ page }) => {
  await page.goto("/login");
  expect(await seriousViolations(page)).toEqual([]);
});

test("the signed-in screens have no serious accessibility violation", async ({ page, request }) => {
  const folder = await seedFolder(request, `Axe ${Math.random().toString(36).slice(2, 7)}`, ["a.txt", "b.txt"]);
  await signInAsAdmin(page);
  for (const path of ["/", "/files", `/files/${folder.id}`, "/recent", "/trash", "/archives", "/links", "/account"]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await page.waitForLoadState("networkidle");
    expect(await seriousViolations(page), path).toEqual([]);
  }
  // With the details panel and the share dialog open.
  await page.goto(`/files/${folder.id}`);
  await page.getByRole("row").filter({ hasText: "a.txt" }).click();
  await page.getByRole("toolbar", { name: "Actions" }).getByRole("button", { name: "Details" }).click();
  await expect(page.getByTestId("details-panel")).toBeVisible();
  expect(await seriousViolations(page), "details panel").toEqual([]);
  await page.getByRole("toolbar", { name: "Actions" }).getByRole("button", { name: "Share by link" }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  expect(await seriousViolations(page), "share dialog").toEqual([]);
});

test("the public link pages have no serious accessibility violation", async ({ page, request }) => {
  const folder = await seedFolder(request, `Public axe ${Math.random().toString(36).slice(2, 7)}`, ["c.txt"]);
  const { headers, end } = await adminApi(request);
  const share = await (await request.post("/api/share", { headers, data: { roots: [{ id: folder.id, entity_type: 0 }], flags: 4 } })).json();
  const drop = await (await request.post("/api/ulink", { headers, data: { folder_id: folder.id } })).json();
  await end();
  for (const url of [share.url, drop.url]) {
    await page.goto(new URL(url).pathname);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    expect(await seriousViolations(page), url).toEqual([]);
  }
});
