import { setTimeout as sleep } from "node:timers/promises";
import { eq } from "drizzle-orm";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as contentRoute from "@/app/api/preview/[fileId]/content/route";
import { getDb } from "@/db";
import { versionPreviews, versionTexts } from "@/db/schema";
import { makePreview } from "@/lib/server/previews/make-preview";
import { isInstalled } from "@/lib/server/previews/converter";
import { extractText } from "@/lib/server/texts/extract-text";
import { ocrSlice } from "@/lib/server/texts/ocr-job";
import { createFileToken } from "@/lib/server/tokens/create-file-token";
import { createFileScene, OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { ctxFor } from "../../helpers/files";
import { expectHealthFast, healthWhile, warmHealth } from "../../helpers/health";
import { callBytes, makeImageBombPdf, makeManyPagesPdf, makeOperatorsPdf, uploadBytes } from "./fixtures";

// Issue 25, finding 3: one PDF froze the whole server. pdf.js now works in worker threads with
// limits; the web process's event loop keeps answering whatever the document holds.
beforeAll(async () => {
  await openDatabase();
  await warmHealth();
}, OPEN_TIMEOUT);
const LIMIT_MS = 3000;
const hasOcr = isInstalled("tesseract") && isInstalled("pdftoppm") && isInstalled("bubblewrap");
beforeEach(() => {
  process.env.PDF_TIMEOUT_MS = String(LIMIT_MS);
});
afterEach(() => {
  delete process.env.PDF_TIMEOUT_MS;
});

async function heavyScene(name: string, bytes: Buffer) {
  const { owner, folder } = await createFileScene();
  const { version } = await uploadBytes(owner, folder.id, name, bytes, "application/pdf");
  const token = (await createFileToken(await ctxFor(owner), version.id, "preview")).token;
  const page = (n: number) => callBytes(contentRoute.GET, { params: { fileId: String(version.id) }, query: { token, page: String(n) } });
  return { version, page };
}

const previewOf = async (versionId: number) => (await (await getDb()).select().from(versionPreviews).where(eq(versionPreviews.versionId, versionId)))[0];
const textOf = async (versionId: number) => (await (await getDb()).select().from(versionTexts).where(eq(versionTexts.versionId, versionId)))[0];

describe("a pathological PDF never stalls the server", () => {
  it("one 20000 x 20000 image in a small file: the image is left out, health stays under 100 ms, memory comes back", async () => {
    // Time enough on a loaded machine: what is checked here is the image left out, not the time limit.
    process.env.PDF_TIMEOUT_MS = "20000";
    const { version, page } = await heavyScene("bomb.pdf", makeImageBombPdf());
    const db = await getDb();
    const rssBefore = process.memoryUsage().rss;

    const thumbnail = await healthWhile(makePreview(db, version.id));
    expectHealthFast(thumbnail);
    expect(await previewOf(version.id)).toMatchObject({ state: "available", pageCount: 1 });

    const rendition = await healthWhile(page(1));
    expectHealthFast(rendition);
    expect(rendition.result.status).toBe(200);
    expect(rendition.result.headers.get("content-type")).toBe("image/png");

    const text = await healthWhile(extractText(db, version.id));
    expectHealthFast(text);
    // Its page has no text layer: OCR's turn (issue 33), each step in the sandbox with its
    // ceilings (poppler draws the page without the image, or is stopped): no text, no stall.
    expect((await textOf(version.id)).state).toBe(hasOcr ? "preparing" : "available");
    if (hasOcr) {
      const ocr = await healthWhile(ocrSlice(db, version.id));
      expectHealthFast(ocr);
      expect(ocr.result).toBe(false);
      const read = await textOf(version.id);
      expect(read.content).toBe("");
      expect(["available", "failed"]).toContain(read.state);
    }

    // Decoded, the image alone is 1.6 GB of pixels.
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(300 * 1024 * 1024);
  }, 180_000);

  it("2 million drawing operators: the page and the thumbnail end failed within the time limit, the worker stopped; the page is not tried again", async () => {
    const { version, page } = await heavyScene("operators.pdf", makeOperatorsPdf(2_000_000));
    const db = await getDb();
    const rssBefore = process.memoryUsage().rss;

    const rendition = await healthWhile(page(1));
    expectHealthFast(rendition);
    expect(rendition.elapsed).toBeGreaterThanOrEqual(LIMIT_MS);
    expect(rendition.elapsed).toBeLessThan(LIMIT_MS + 5000);
    expect(rendition.result.status).toBe(415);
    expect(JSON.parse(rendition.result.bytes.toString())).toMatchObject({ code: "unsupported_media_type", error: expect.stringMatching(/too heavy.*longer than 3 s/) });
    const again = performance.now();
    expect((await page(1)).status).toBe(415);
    expect(performance.now() - again).toBeLessThan(500);

    const thumbnail = await healthWhile(makePreview(db, version.id));
    expectHealthFast(thumbnail);
    expect(thumbnail.elapsed).toBeLessThan(LIMIT_MS + 5000);
    const preview = await previewOf(version.id);
    expect(preview).toMatchObject({ state: "failed", thumbBlobId: null });
    expect(preview.error).toMatch(/too heavy.*longer than 3 s/);

    const text = await healthWhile(extractText(db, version.id));
    expectHealthFast(text);
    expect(text.elapsed).toBeLessThan(LIMIT_MS + 5000);
    // Stopped at the limit (failed), or, on a fast machine, read in time: the page has no text
    // layer, so it waits for OCR (issue 33) when Tesseract is here.
    expect(["available", "failed", ...(hasOcr ? ["preparing"] : [])]).toContain((await textOf(version.id)).state);

    // The stopped workers' memory went with them.
    await sleep(500);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(300 * 1024 * 1024);
  }, 60_000);

  it("100,000 pages: text and thumbnail end within the time limit while health stays under 100 ms", async () => {
    const { version } = await heavyScene("pages.pdf", makeManyPagesPdf(100_000));
    const db = await getDb();
    // pdf.js needs some 15 s to open this file (a flat page tree), then reads a few pages a second.
    const text = await healthWhile(extractText(db, version.id));
    expectHealthFast(text);
    expect(text.elapsed).toBeLessThan(LIMIT_MS + 5000);
    expect((await textOf(version.id)).state).toBe("failed");

    const thumbnail = await healthWhile(makePreview(db, version.id));
    expectHealthFast(thumbnail);
    expect(thumbnail.elapsed).toBeLessThan(LIMIT_MS + 5000);
    expect(await previewOf(version.id)).toMatchObject({ state: "failed", error: expect.stringMatching(/too heavy/) });
  }, 60_000);
});
