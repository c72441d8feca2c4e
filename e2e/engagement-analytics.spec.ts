import { readFile } from "node:fs/promises";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { pdfWithPages } from "./fixtures";
import { createUser, screenshot, signIn } from "./helpers";

// Issue 30: an anonymous visitor gives an email, reads page 1 then page 3 of a PDF for measured
// times (through the API a viewer calls), and the owner's analytics page shows those pages and that visitor.

const READER = "reader@example.com";
const PAGE_1_MS = 42_000;
const PAGE_3_MS = 95_000;

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}

/** The owner's bearer token, a PDF of three pages in their space, and two links on it: one gated by an email, one nobody opens. */
async function seedOwnerLinks(request: APIRequestContext, owner: { login: string; password: string }) {
  const { token } = await (await request.post("/api/auth", { data: { user: owner.login, password: owner.password } })).json();
  const headers = { Authorization: `Bearer ${token}` };
  const roots = await (await request.get("/api/roots", { headers })).json();
  const privateRoot = roots.find((r: { type: string }) => r.type === "private");
  const uploaded = await request.post("/api/file/upload", {
    headers,
    multipart: { folderId: String(privateRoot.id), targetFile: { name: "board-pack.pdf", mimeType: "application/pdf", buffer: pdfWithPages(["Agenda", "Minutes", "Budget"]) } },
  });
  expect(uploaded.status()).toBe(201);
  const file = await uploaded.json();
  const create = async (name: string, gate: Record<string, unknown>) => {
    const created = await request.post("/api/share", { headers, data: { roots: [{ id: file.id, entity_type: 1 }], name, ...gate } });
    expect(created.status()).toBe(201);
    return (await created.json()) as { id: number; key: string; roots: { id: number }[] };
  };
  const read = await create("Board pack for the investors", { ask_email: 1 });
  const quiet = await create("Board pack, draft", {});
  await request.delete("/api/auth", { headers });
  return { read, quiet };
}

/** What the page-by-page viewer sends: the visitor's email, a visit of the PDF, then page 1 and page 3 with their visible times. */
async function readPagesOneAndThree(request: APIRequestContext, link: { key: string; roots: { id: number }[] }) {
  const base = `/api/share/key/${link.key}`;
  const entered = await request.post(`${base}/visitor`, { data: { email: READER } });
  expect(entered.status()).toBe(200);
  const headers = { Authorization: `Bearer ${(await entered.json()).access_token}` };
  const visit = await request.post(`${base}/visits`, { headers, data: { file_id: link.roots[0].id } });
  expect(visit.status()).toBe(201);
  const { visit_id } = await visit.json();
  for (const batch of [[{ page: 1, ms: PAGE_1_MS }], [{ page: 3, ms: PAGE_3_MS }]]) {
    const sent = await request.post(`${base}/visits/${visit_id}/pages`, { headers, data: { pages: batch } });
    expect(sent.status()).toBe(204);
  }
}

test("the owner's analytics show the visitor who read pages 1 and 3, their timeline and the CSV, on a desktop and a phone", async ({ page, request }) => {
  test.setTimeout(180_000);
  const owner = await createUser(request, { firstname: "Olive", lastname: "Owner" });
  const { read, quiet } = await seedOwnerLinks(request, owner);
  await readPagesOneAndThree(request, read);

  await signIn(page, owner.password, owner.login);
  await expect(page).toHaveURL("/");

  // My links: each share has its analytics, and the screen the summary.
  await page.goto("/links");
  await expect(page.getByRole("link", { name: "Analytics of all my links" })).toBeVisible();
  await page.getByRole("listitem").filter({ hasText: "Board pack for the investors" }).getByRole("link", { name: "Analytics", exact: true }).click();
  await expect(page).toHaveURL(`/links/${read.id}/analytics`);

  await expect(page.getByRole("heading", { level: 1, name: "Board pack for the investors" })).toBeVisible();
  await expect(page.getByRole("link", { name: "← My links" })).toHaveAttribute("href", "/links");
  const figures = page.getByRole("definition");
  await expect(page.getByRole("term").filter({ hasText: /^Visits$/ })).toBeVisible();
  await expect(figures.nth(0)).toHaveText("1");
  await expect(figures.nth(1)).toHaveText("1");
  await expect(figures.nth(3)).toHaveText("2 min 17 sec");

  // Visits per day: today has the one visit, in the chart's table.
  const overTime = page.getByRole("region", { name: "Visits and visitors per day" });
  await expect(overTime.getByRole("img", { name: "Visits and visitors per day" })).toBeVisible();
  await overTime.getByText("Show as a table").click();
  const today = new Date().toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
  await expect(overTime.getByRole("row", { name: new RegExp(`^${today} 1 1$`) })).toBeVisible();
  await overTime.getByText("Show as a table").click();
  await expect(overTime.getByRole("table")).toBeHidden();

  // Where readers stop: pages 1 and 3 with their times, page 2 skipped.
  const pages = page.getByRole("region", { name: "Pages: where readers stop" });
  await expect(pages.getByRole("img", { name: "Median time per page of board-pack.pdf" })).toBeVisible();
  await pages.getByText("Show as a table").click();
  await expect(pages.getByRole("row", { name: "1 42 sec", exact: true })).toBeVisible();
  await expect(pages.getByRole("row", { name: "2 0 sec", exact: true })).toBeVisible();
  await expect(pages.getByRole("row", { name: "3 1 min 35 sec", exact: true })).toBeVisible();
  await pages.getByRole("button", { name: "Views", exact: true }).click();
  await expect(pages.getByRole("img", { name: "Views per page of board-pack.pdf" })).toBeVisible();
  await expect(pages.getByRole("row", { name: "3 1", exact: true })).toBeVisible();
  await pages.getByRole("button", { name: "Median time" }).click();

  // The visitor: pages seen, time, completion (2 of 3 pages).
  const visitors = page.getByRole("region", { name: "Visitors", exact: true });
  const visitor = visitors.getByTestId("visitor-row");
  await expect(visitor).toHaveCount(1);
  await expect(visitor.getByRole("rowheader")).toHaveText(READER);
  await expect(visitor.getByRole("cell").nth(1)).toHaveText("2");
  await expect(visitor.getByRole("cell").nth(2)).toHaveText("2 min 17 sec");
  await expect(visitor.getByRole("cell").nth(3)).toHaveText("67%");
  await expect(visitor.getByRole("cell").nth(5)).toHaveText("—");
  // Sorting by time turns the header's state.
  const byTime = visitors.getByRole("columnheader", { name: /Time/ });
  await byTime.getByRole("button").click();
  await expect(byTime).toHaveAttribute("aria-sort", "descending");

  expect(await seriousViolations(page), "analytics page").toEqual([]);
  await screenshot(page, "engagement-analytics-desktop", { fullPage: true });

  // The timeline of the visit, from the keyboard: page 1 then page 3, with their times.
  await visitor.getByRole("button", { name: READER }).focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: `Visits of ${READER}` });
  await expect(dialog).toBeVisible();
  const visit = dialog.getByTestId("timeline-visit");
  await expect(visit.getByRole("heading", { name: "board-pack.pdf" })).toBeVisible();
  const events = visit.getByRole("listitem");
  await expect(events).toHaveCount(2);
  await expect(events.nth(0)).toContainText("Page 1: 42 sec");
  await expect(events.nth(1)).toContainText("Page 3: 1 min 35 sec");
  expect(await seriousViolations(page), "timeline dialog").toEqual([]);
  await screenshot(page, "engagement-timeline-desktop");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  // Export CSV downloads the visitors.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export CSV" }).click()]);
  expect(download.suggestedFilename()).toBe(`link-${read.id}-visitors.csv`);
  expect(await readFile((await download.path())!, "utf8")).toContain(READER);

  // On a phone: nothing scrolls sideways but the tables inside their frames.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(visitor.getByRole("rowheader")).toHaveText(READER);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await screenshot(page, "engagement-analytics-390", { fullPage: true });
  await visitor.getByRole("button", { name: READER }).click();
  await expect(dialog.getByTestId("timeline-visit")).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await screenshot(page, "engagement-timeline-390");
  await page.keyboard.press("Escape");

  // The summary across my links, linking to each link's page.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/links/analytics");
  await expect(page.getByRole("heading", { level: 1, name: "Analytics of my links" })).toBeVisible();
  await expect(page.getByRole("img", { name: "Visits over the last 30 days" })).toBeVisible();
  const links = page.getByRole("region", { name: "Links", exact: true });
  await expect(links.getByRole("row", { name: /^Board pack for the investors 1 1 2 min 17 sec/ })).toBeVisible();
  await expect(links.getByRole("row", { name: /^Board pack, draft 0 0 0 sec —$/ })).toBeVisible();
  expect(await seriousViolations(page), "summary").toEqual([]);
  await screenshot(page, "engagement-summary-desktop", { fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await screenshot(page, "engagement-summary-390", { fullPage: true });

  // A link nobody opened, and one that is not there.
  await links.getByRole("link", { name: "Board pack, draft" }).click();
  await expect(page).toHaveURL(`/links/${quiet.id}/analytics`);
  await expect(page.getByText("No one has opened this link yet.")).toBeVisible();
  await page.goto("/links/2147483000/analytics");
  await expect(page.getByRole("heading", { level: 1, name: "Link not found" })).toBeVisible();
});
