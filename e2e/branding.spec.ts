import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { adminApi, screenshot, seedFolder, signInAsAdmin } from "./helpers";

// A logo sent as SVG (with a script the server must never serve back): an orange door on a teal square.
const LOGO_SVG = Buffer.from(
  `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="80" viewBox="0 0 240 80"><script>alert("x")</script>` +
    `<rect width="80" height="80" rx="16" fill="#0f766e"/><circle cx="40" cy="40" r="20" fill="#f59e0b"/>` +
    `<rect x="96" y="24" width="136" height="32" rx="8" fill="#0f766e"/></svg>`,
);
const TEAL = "#0f766e";
const TEAL_RGB = "rgb(15, 118, 110)";

async function seriousViolations(page: Page, include: string) {
  const results = await new AxeBuilder({ page }).include(include).analyze();
  return results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}

/** The brand in the page's header: the logo image, loaded (not broken), in place of the default mark. */
async function expectLogo(page: Page) {
  const logo = page.locator('img[src^="/api/config/logo?v="]').first();
  await expect(logo).toBeVisible();
  await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  return logo;
}

// The journeys share one server: put the default brand back whatever happened.
test.afterAll(async ({ request }) => {
  const { headers, end } = await adminApi(request);
  await request.put("/api/config", { headers, data: { brand_color: "#2f5bd3" } });
  await request.delete("/api/config/logo", { headers });
  await end();
});

test("an administrator sets the brand colour and logo; the share page and the sign-in page show them", async ({ page, browser, request }) => {
  await signInAsAdmin(page);
  await page.goto("/admin/config");
  const card = page.getByRole("region", { name: "Branding" });
  await expect(card).toBeVisible();
  await expect(card.getByText("No logo: the default mark is shown.")).toBeVisible();

  // The colour: typed as a code, the picker follows; saved through PUT /api/config.
  await card.getByLabel("Colour code").fill(TEAL.toUpperCase());
  await expect(card.getByLabel("Accent colour")).toHaveValue(TEAL);
  await card.getByRole("button", { name: "Save" }).click();
  await expect(card.getByText("Saved.")).toBeVisible();

  // The logo: uploaded, re-encoded by the server, previewed.
  await card.getByText("Upload a logo").locator("input[type=file]").setInputFiles({ name: "logo.svg", mimeType: "image/svg+xml", buffer: LOGO_SVG });
  await expect(card.getByText("Logo updated.")).toBeVisible();
  const preview = card.getByRole("img", { name: "Current logo" });
  await expect(preview).toBeVisible();
  await expect(card.getByRole("button", { name: "Remove the logo" })).toBeVisible();
  expect(await seriousViolations(page, "[data-testid=branding-card]")).toEqual([]);
  await screenshot(page, "branding-console", { show: card });

  // What the server serves is its own PNG, never the SVG sent.
  const logoUrl = await preview.getAttribute("src");
  const served = await request.get(logoUrl!);
  expect(served.headers()["content-type"]).toBe("image/png");
  expect(served.headers()["x-content-type-options"]).toBe("nosniff");
  expect((await served.body()).includes(Buffer.from("<script"))).toBe(false);

  // A link recipient, without an account, opens a share.
  const folder = await seedFolder(request, `Branded ${Math.random().toString(36).slice(2, 7)}`, ["report.txt"]);
  const { headers, end } = await adminApi(request);
  const share = await (await request.post("/api/share", { headers, data: { roots: [{ id: folder.id, entity_type: 0 }], flags: 4 } })).json();
  await end();
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(new URL(share.url).pathname);
  await expect(visitor.getByTestId("shared-item")).toHaveCount(1);
  await expectLogo(visitor);
  const accent = () => visitor.locator("main").first().evaluate((el) => getComputedStyle(el).getPropertyValue("--accent").trim());
  await expect.poll(accent).toBe(TEAL);
  await screenshot(visitor, "branding-share-page");

  // The sign-in page, for the same visitor.
  await visitor.goto("/login");
  await expectLogo(visitor);
  const signInButton = visitor.getByRole("button", { name: "Sign in" });
  await expect.poll(() => signInButton.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(TEAL_RGB);
  await screenshot(visitor, "branding-sign-in");

  // Removing the logo brings the default mark back.
  await card.getByRole("button", { name: "Remove the logo" }).click();
  await expect(card.getByText("Logo removed.")).toBeVisible();
  await visitor.reload();
  await expect(visitor.getByRole("button", { name: "Sign in" })).toBeVisible();
  await expect(visitor.locator('img[src^="/api/config/logo"]')).toHaveCount(0);
  await expect(visitor.locator("main svg").first()).toBeVisible();
  await visitor.context().close();
});
