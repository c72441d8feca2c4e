import { expect, test, type APIResponse, type BrowserContext, type Page } from "@playwright/test";
import { pdfWithText, solidPng } from "./fixtures";
import { adminApi, seedFolder, signInAsAdmin } from "./helpers";

const suffix = () => Math.random().toString(36).slice(2, 7);
const row = (page: Page, name: string) => page.getByRole("row").filter({ has: page.getByText(name, { exact: true }) });

/** The directives of a CSP header, by name. */
function directives(response: APIResponse): Map<string, string[]> {
  const csp = response.headers()["content-security-policy"] ?? "";
  return new Map(
    csp
      .split(";")
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

/**
 * Every CSP violation in any frame of the context, as the browser reports it: the
 * `securitypolicyviolation` event (from an init script, which Playwright injects past the CSP)
 * and the console's "Refused to ..." errors, for the ones that fire no event.
 */
async function collectViolations(context: BrowserContext): Promise<string[]> {
  const seen: string[] = [];
  await context.exposeBinding("__cspViolation", ({ frame }, text: string) => void seen.push(`${frame.url()}: ${text}`));
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      (window as unknown as { __cspViolation: (text: string) => void }).__cspViolation(`${event.effectiveDirective} blocked ${event.blockedURI || "inline"} (${event.sourceFile}:${event.lineNumber})`);
    });
  });
  context.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) seen.push(`${message.location().url}: ${message.text()}`);
  });
  return seen;
}

test.describe("security headers", () => {
  test("pages carry a per-request nonce CSP that refuses framing, and secret-bearing pages send no referrer", async ({ request }) => {
    const first = await request.get("/login");
    const second = await request.get("/login");
    expect(first.status()).toBe(200);
    const csp = directives(first);
    const scriptSrc = csp.get("script-src") ?? [];
    const nonce = scriptSrc.find((source) => source.startsWith("'nonce-"));
    expect(nonce).toMatch(/^'nonce-[A-Za-z0-9+/]{22}=='$/);
    expect(scriptSrc).toContain("'strict-dynamic'");
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    expect(scriptSrc).not.toContain("'unsafe-eval'");
    expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
    expect(csp.get("object-src")).toEqual(["'none'"]);
    expect(csp.get("base-uri")).toEqual(["'none'"]);
    // A new nonce each time, and every script of the page carries it: Next applied it.
    expect(directives(second).get("script-src")).not.toContain(nonce);
    const html = await first.text();
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(script).toContain(`nonce="${nonce!.slice(7, -1)}"`);

    const headers = first.headers();
    expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["x-frame-options"]).toBe("DENY");
    expect(headers["permissions-policy"]).toContain("camera=()");
    // The journeys' server runs without BASE_URL (plain http): no HSTS (the https case is a unit test).
    expect(headers["strict-transport-security"]).toBeUndefined();

    for (const path of ["/s/some-key", "/d/some-key", "/invite/some-key", "/reset-password/some-token"]) {
      const page = await request.get(path);
      expect(page.headers()["referrer-policy"], path).toBe("no-referrer");
      expect(directives(page).get("frame-ancestors"), path).toEqual(["'none'"]);
    }
  });

  test("the API answers with nosniff and refuses framing, except the preview page our own pages frame", async ({ request }) => {
    const health = await request.get("/api/health");
    expect(health.headers()["x-content-type-options"]).toBe("nosniff");
    expect(health.headers()["x-frame-options"]).toBe("DENY");
    // proxy.ts never runs on /api (it would cut upload bodies at 10 MB): no page policy here.
    expect(health.headers()["content-security-policy"]).toBeUndefined();

    const folder = await seedFolder(request, `Headers ${suffix()}`, [{ name: "framed.pdf", mimeType: "application/pdf", buffer: pdfWithText("Framed by our own page") }]);
    const { headers, end } = await adminApi(request);
    const listing = await (await request.get(`/api/folder/${folder.id}?depth=0`, { headers })).json();
    const file = listing.content.files[0];
    const token = (await (await request.post(`/api/token/file/${file.id}/preview`, { headers })).json()).token;
    await end();
    const preview = await request.get(`/api/preview/${file.id}?token=${encodeURIComponent(token)}`);
    expect(preview.status()).toBe(200);
    expect(preview.headers()["x-content-type-options"]).toBe("nosniff");
    expect(preview.headers()["x-frame-options"]).toBeUndefined();
    expect(directives(preview).get("frame-ancestors")).toEqual(["'self'"]);
  });

  test("an upload over 10 MB reaches its route whole (proxy.ts leaves /api alone)", async ({ request }) => {
    const folder = await seedFolder(request, `Large ${suffix()}`, []);
    const { headers, end } = await adminApi(request);
    const size = 11 * 1024 * 1024 + 17;
    const uploaded = await request.post("/api/file/upload", {
      headers,
      multipart: { folderId: String(folder.id), targetFile: { name: "large.bin", mimeType: "application/octet-stream", buffer: Buffer.alloc(size, 7) } },
      timeout: 60_000,
    });
    expect(uploaded.status()).toBe(201);
    const listing = await (await request.get(`/api/folder/${folder.id}?depth=0`, { headers })).json();
    await end();
    expect(listing.content.files.map((f: { name: string; size: number }) => [f.name, f.size])).toEqual([["large.bin", size]]);
  });

  test("the main screens run without a single CSP violation: file browser with previews, share pages, drop page", async ({ page, browser, request }) => {
    const violations = await collectViolations(page.context());
    const name = `Policy ${suffix()}`;
    const folder = await seedFolder(request, name, [
      { name: "a-photo.png", mimeType: "image/png", buffer: await solidPng(320, 200, [30, 120, 200]) },
      { name: "b-figures.pdf", mimeType: "application/pdf", buffer: pdfWithText("Quarterly figures under a strict policy") },
    ]);

    // Signed in (next-auth), the file browser with its thumbnails, an image and a PDF (pdf.js and its worker).
    await signInAsAdmin(page);
    await page.goto(`/files/${folder.id}`);
    const thumbnail = row(page, "a-photo.png").locator("img");
    await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth), { timeout: 30_000 }).toBeGreaterThan(0);
    await row(page, "a-photo.png").dblclick();
    const preview = page.getByTestId("preview");
    await expect.poll(() => preview.getByRole("img", { name: "a-photo.png" }).evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);
    await page.keyboard.press("ArrowRight");
    await expect(preview.getByTestId("pdf-text")).toContainText("Quarterly figures");
    await page.keyboard.press("Escape");
    for (const path of ["/", "/recent", "/links", "/trash", "/account"]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    }

    // Two public links: preview and download (pdf.js in the page), preview only (the framed preview page).
    const { headers, end } = await adminApi(request);
    const share = async (flags: number) => (await (await request.post("/api/share", { headers, data: { roots: [{ id: folder.id, entity_type: 0 }], flags } })).json()).key as string;
    const [both, previewOnly] = [await share(4), await share(2)];
    const drop = (await (await request.post("/api/ulink", { headers, data: { folder_id: folder.id, name: "Policy drop", alert: false } })).json()).key as string;
    await end();

    const visitorContext = await browser.newContext();
    const visitorViolations = await collectViolations(visitorContext);
    const visitor = await visitorContext.newPage();
    await visitor.goto(`/s/${both}`);
    await visitor.getByRole("button", { name: new RegExp(name) }).click();
    // Issue 30: PDFs open in the page-by-page viewer (server-rendered pages) on both links.
    const pageImage = visitor.getByTestId("page-viewer").locator("[data-page='1'] img");
    await visitor.getByRole("button", { name: "Preview b-figures.pdf" }).click();
    await expect.poll(() => pageImage.evaluate((img: HTMLImageElement) => img.naturalWidth), { timeout: 30_000 }).toBeGreaterThan(0);

    await visitor.goto(`/s/${previewOnly}`);
    await visitor.getByRole("button", { name: new RegExp(name) }).click();
    await visitor.getByRole("button", { name: "Preview b-figures.pdf" }).click();
    await expect.poll(() => pageImage.evaluate((img: HTMLImageElement) => img.naturalWidth), { timeout: 30_000 }).toBeGreaterThan(0);

    await visitor.goto(`/d/${drop}`);
    await expect(visitor.getByRole("heading", { name: "Policy drop" })).toBeVisible();
    await visitor.getByTestId("deposit-input").setInputFiles({ name: "dropped.txt", mimeType: "text/plain", buffer: Buffer.from("dropped under a strict policy\n") });
    await expect(visitor.getByTestId("deposit-state")).toHaveText(["Received"]);

    for (const path of ["/invite/no-such-key", "/reset-password/no-such-token", "/login/forgot-password"]) {
      await visitor.goto(path);
      await expect(visitor.getByRole("main")).toBeVisible();
    }
    await visitorContext.close();

    expect(violations).toEqual([]);
    expect(visitorViolations).toEqual([]);
  });
});
