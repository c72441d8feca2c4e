import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { adminApi, createUser, screenshot, signIn, signInAsAdmin } from "./helpers";

// Issue 32: the dashboard's "today" comes from the live data, not from the day's first sample.

/** The number a figure of the dashboard shows under its label. */
async function figure(scope: Locator, label: string): Promise<number> {
  const text = await scope.getByText(label, { exact: true }).locator("..").locator("span").nth(1).innerText();
  return Number(text.replace(/[^\d]/g, ""));
}

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}

test("after a user uploads three files and signs in, the administrator's dashboard shows them today, without waiting for a sample", async ({ browser, request }) => {
  test.setTimeout(180_000);
  // Where today stood before (on the old code, this very request took today's sample, which then stood for the day).
  const api = await adminApi(request);
  const before = (await (await request.get("/api/stats?mask=32", { headers: api.headers })).json()).stats.days.at(-1);
  await api.end();
  const user = await createUser(request, { firstname: "Stella", lastname: "Stats" });

  // The user signs in on the web and drops three files into their space.
  const userContext = await browser.newContext();
  const userPage = await userContext.newPage();
  await signIn(userPage, user.password, user.login);
  await expect(userPage).toHaveURL("/");
  await userPage.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "My files" }).click();
  await expect(userPage).toHaveURL("/files");
  await expect(userPage.getByRole("heading", { level: 1 })).toHaveText("My files");
  await expect(userPage.getByText("This folder is empty.")).toBeVisible();
  await userPage.getByTestId("upload-input").setInputFiles([
    { name: "minutes.txt", mimeType: "text/plain", buffer: Buffer.from("minutes ".repeat(500)) },
    { name: "photo.png", mimeType: "image/png", buffer: Buffer.from("89504e470d0a1a0a", "hex") },
    { name: "budget.csv", mimeType: "text/csv", buffer: Buffer.from("a,b\n1,2\n") },
  ]);
  await expect(userPage.getByRole("region", { name: /Uploads/ })).toContainText("3 of 3 done");
  await userContext.close();

  // The administrator opens the dashboard straight away.
  const page = await (await browser.newContext()).newPage();
  await signInAsAdmin(page);
  await page.goto("/admin");
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  const today = page.getByRole("region", { name: "Today" });
  await expect(today.getByText("Uploads today", { exact: true })).toBeVisible();
  expect(await figure(today, "Uploads today")).toBeGreaterThanOrEqual(before.uploads + 3);
  const key = page.getByRole("region", { name: "Key figures" });
  expect(await figure(key, "Active users today")).toBeGreaterThanOrEqual(before.active_users + 1);
  await expect(key.getByText(/active over the last 30 days/)).toBeVisible();

  // The new charts and storage by type; every chart has its table.
  await expect(page.getByRole("img", { name: "Signatures and validations per day" })).toBeVisible();
  const types = page.getByRole("region", { name: "Storage by type" });
  for (const type of ["Documents", "Images", "Video", "Audio", "Archives", "Other"]) await expect(types.getByRole("rowheader", { name: type })).toBeVisible();
  const storage = page.getByRole("region", { name: "Storage used over time" });
  await storage.getByText("Show as a table").click();
  const lastRow = storage.getByRole("table").getByRole("row").last();
  await expect(lastRow).toBeVisible();
  // The chart's last point (today) is the card's figure: both live, both the same number of bytes.
  const used = await key.getByText("Storage used", { exact: true }).locator("..").locator("span").nth(1).innerText();
  await expect(lastRow.getByRole("cell")).toHaveText(used);
  // No axis repeats a label.
  for (const chart of await page.getByRole("img").filter({ has: page.locator("svg title") }).all()) {
    const ticks = await chart.locator("g[aria-hidden] > g > text").allTextContents();
    expect(new Set(ticks).size, ticks.join(" / ")).toBe(ticks.length);
  }
  expect(await seriousViolations(page), "dashboard").toEqual([]);
  await screenshot(page, "console-stats-desktop", { fullPage: true });

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(today.getByText("Uploads today", { exact: true })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await screenshot(page, "console-stats-390", { fullPage: true });
});
