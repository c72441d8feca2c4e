import { expect, test, type Browser } from "@playwright/test";
import { adminApi, screenshot, seedFolder, signInAsAdmin } from "./helpers";

const suffix = () => Math.random().toString(36).slice(2, 7);

/** A PDF of `count` pages, each saying its number in large type. */
async function pdfOfPages(count: number): Promise<Buffer> {
  const { PDFDocument, StandardFonts } = await import("pdf-lib");
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= count; n++) {
    const page = pdf.addPage([595, 842]);
    page.drawText(`Proposal, page ${n}`, { x: 72, y: 740, size: 36, font });
    page.drawText("Terms, figures and the plan for next year.", { x: 72, y: 690, size: 16, font });
  }
  return Buffer.from(await pdf.save());
}

/** A preview-only link (flag 2) to a folder holding a 3-page PDF, with the gate given; its key and id. */
async function shareProposal(request: Parameters<typeof seedFolder>[0], name: string, gate: Record<string, unknown> = {}) {
  const folder = await seedFolder(request, name, [{ name: "proposal.pdf", mimeType: "application/pdf", buffer: await pdfOfPages(3) }]);
  const { headers, end } = await adminApi(request);
  const created = await request.post("/api/share", { headers, data: { roots: [{ id: folder.id, entity_type: 0 }], flags: 2, name, ...gate } });
  expect(created.status()).toBe(201);
  const share = (await created.json()) as { id: number; key: string };
  await end();
  return share;
}

async function openViewer(browser: Browser, key: string, folderName: string, viewport?: { width: number; height: number }, email?: string) {
  const context = await browser.newContext(viewport ? { viewport, isMobile: viewport.width < 500, hasTouch: viewport.width < 500 } : {});
  const visitor = await context.newPage();
  await visitor.goto(`/s/${key}`);
  if (email) {
    // The link's gate: the visitor gives their address, told that their views are recorded.
    await expect(visitor.getByText(/views of these documents are recorded/i)).toBeVisible();
    await visitor.getByLabel("Your email address").fill(email);
    await visitor.getByRole("button", { name: "Continue" }).click();
  }
  await visitor.getByRole("button", { name: folderName }).click();
  await visitor.getByRole("button", { name: "Preview proposal.pdf" }).click();
  const viewer = visitor.getByTestId("page-viewer");
  await expect(viewer.getByTestId("page-indicator")).toHaveText("Page 1 of 3");
  // The first page's image, rendered by the server, has loaded.
  await expect.poll(() => viewer.locator("[data-page='1'] img").evaluate((img: HTMLImageElement) => img.naturalWidth), { timeout: 30_000 }).toBeGreaterThan(0);
  return { context, visitor, viewer };
}

test("a visitor gives an email, reads a shared PDF page by page, and the owner's analytics page shows those pages and that visitor", async ({ browser, page, request }) => {
  const name = `Proposal ${suffix()}`;
  const reader = `reader-${suffix()}@client.example`;
  const share = await shareProposal(request, name, { ask_email: 1 });

  const { context, visitor, viewer } = await openViewer(browser, share.key, name, undefined, reader);
  await expect(viewer.getByText("Views of this document are recorded for the person who shared it")).toBeVisible();
  await screenshot(visitor, "engagement-viewer");
  // Page 1 for about 3 s, then page 3 (End: the pages have the focus from the start) for about 2 s.
  await visitor.waitForTimeout(3_000);
  await expect(viewer.getByTestId("page-viewer-pane")).toBeFocused();
  await visitor.keyboard.press("End");
  await expect(viewer.getByTestId("page-indicator")).toHaveText("Page 3 of 3");
  await expect.poll(() => viewer.locator("[data-page='3'] img").evaluate((img: HTMLImageElement) => img.naturalWidth), { timeout: 30_000 }).toBeGreaterThan(0);
  await screenshot(visitor, "engagement-viewer-page3");
  await visitor.waitForTimeout(2_000);
  // Leaving the page: the last seconds go by beacon.
  await visitor.goto("about:blank");

  const { headers, end } = await adminApi(request);
  type Pages = { pages: { page: number; ms_total: number; views: number }[]; visits: number; visitors: number };
  const read = async () => (await (await request.get(`/api/share/${share.id}/analytics`, { headers })).json()) as Pages;
  await expect.poll(async () => (await read()).pages.map((p) => p.page).sort(), { timeout: 15_000 }).toEqual(expect.arrayContaining([1, 3]));
  const analytics = await read();
  await end();
  await context.close();
  const ms = (page: number) => analytics.pages.find((p) => p.page === page)?.ms_total ?? 0;
  expect(analytics.visits).toBe(1);
  expect(analytics.visitors).toBe(1);
  // Generous bounds: the reading times, plus what the browser takes to load and to leave.
  expect(ms(1)).toBeGreaterThanOrEqual(2_500);
  expect(ms(1)).toBeLessThan(8_000);
  expect(ms(3)).toBeGreaterThanOrEqual(1_500);
  expect(ms(3)).toBeLessThan(6_000);
  expect(ms(2)).toBeLessThan(1_000);

  // The owner's page: that visitor, and pages 1 and 3 with their time (page 2 only scrolled past).
  await signInAsAdmin(page);
  await page.goto(`/links/${share.id}/analytics`);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  const visitors = page.getByRole("region", { name: "Visitors", exact: true });
  await expect(visitors.getByTestId("visitor-row").getByRole("rowheader")).toHaveText(reader);
  const pages = page.getByRole("region", { name: "Pages: where readers stop" });
  await pages.getByText("Show as a table").click();
  // The median of one visit is its time: a few seconds, as the API said above.
  await expect(pages.getByRole("row", { name: /^1 [2-7] sec$/ })).toBeVisible();
  await expect(pages.getByRole("row", { name: /^3 [1-5] sec$/ })).toBeVisible();
  await screenshot(page, "engagement-viewer-owner", { show: visitors });
});

test("the page viewer fits a phone's width, and turns pages by its buttons and its go-to field", async ({ browser, request }) => {
  const name = `Proposal phone ${suffix()}`;
  const share = await shareProposal(request, name);
  const { context, visitor, viewer } = await openViewer(browser, share.key, name, { width: 390, height: 844 });
  const widths = await viewer.locator("[data-page='1']").evaluate((el) => ({ page: el.getBoundingClientRect().width, window: window.innerWidth }));
  expect(widths.page).toBeLessThanOrEqual(widths.window);
  expect(widths.page).toBeGreaterThan(widths.window * 0.9);
  await screenshot(visitor, "engagement-viewer-phone");
  await viewer.getByRole("button", { name: "Next page" }).click();
  await expect(viewer.getByTestId("page-indicator")).toHaveText("Page 2 of 3");
  await viewer.getByLabel("Go to page").fill("3");
  await viewer.getByRole("button", { name: "Go", exact: true }).click();
  await expect(viewer.getByTestId("page-indicator")).toHaveText("Page 3 of 3");
  await viewer.getByRole("button", { name: "Close" }).click();
  await expect(viewer).toBeHidden();
  await context.close();
});
