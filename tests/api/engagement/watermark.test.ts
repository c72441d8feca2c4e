import { execFile } from "node:child_process";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as contentRoute from "@/app/api/preview/[fileId]/content/route";
import * as previewRoute from "@/app/api/preview/[fileId]/route";
import * as guidTokenRoute from "@/app/api/token/share/[guid]/[type]/[key]/route";
import { watermarkOverlay } from "@/lib/server/engagement/watermark-image";
import { cleanWatermarkText, watermarkLine } from "@/lib/server/engagement/watermark-text";
import { downloadByToken } from "@/lib/server/downloads/serve-download";
import { serveShareZip } from "@/lib/server/shares/serve-zip";
import { createTestUser } from "../../helpers/factories";
import { OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { createFolder, uploadText } from "../../helpers/files";
import { expectHealthFast, healthWhile, warmHealth } from "../../helpers/health";
import { call } from "../../helpers/http";
import { serveNode } from "../../helpers/node-server";
import { callBytes, makeManyPagesPdf, makePdf, uploadBytes } from "../previews/fixtures";
import { bearer, createShare } from "../shares/share-helpers";
import { gate, pageOf, setGate, visitorToken } from "./page-helpers";

const run = promisify(execFile);

// Downloads and zips answer on Node's own response (pages/api): tested over real HTTP.
let server: Awaited<ReturnType<typeof serveNode>>;
let work = "";
beforeAll(async () => {
  await openDatabase();
  await warmHealth();
  server = await serveNode((req, res) => (req.url?.startsWith("/api/zip/share/") ? serveShareZip(req, res) : downloadByToken(req, res)));
  work = await mkdtemp(path.join(os.tmpdir(), "coffre-watermark-test-"));
}, OPEN_TIMEOUT);
afterAll(async () => {
  await server.close();
  await rm(work, { recursive: true, force: true });
});
afterEach(() => {
  delete process.env.WATERMARK_TIMEOUT_MS;
  delete process.env.WATERMARK_MAX_PDF_MB;
});

async function get(url: string) {
  const res = await fetch(`${server.url}${url}`);
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

/** A watermarked (or not) view-and-download link to a folder with a two-page PDF and a text. */
async function scene(watermark: boolean, pdf: Buffer = makePdf(["Quarterly figures", "Second page words"])) {
  const owner = await createTestUser();
  const folder = await createFolder(owner, owner.privateRootId!, "Shared");
  const doc = await uploadBytes(owner, folder.id, "report.pdf", pdf, "application/pdf");
  const text = await uploadText(owner, folder.id, "notes.txt", "plain words");
  const share = await createShare(owner, { roots: [{ id: folder.id, entity_type: 0 }], flags: 4 });
  await setGate(share.id, gate(watermark));
  return { owner, pdf, doc, text, share };
}

async function downloadToken(key: string, guid: string, access?: string) {
  const res = await call(guidTokenRoute.POST, { method: "POST", params: { key, guid, type: "download" }, headers: bearer(access) });
  expect(res.status, res.text).toBe(200);
  return res.body.token as string;
}

/** Raw RGB pixels of an image, with its size. */
const pixels = (bytes: Buffer) => sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });

/** The mean absolute difference of two same-sized images, per channel value (0..255). */
async function meanDifference(a: Buffer, b: Buffer): Promise<number> {
  const [pa, pb] = await Promise.all([pixels(a), pixels(b)]);
  expect([pa.info.width, pa.info.height]).toEqual([pb.info.width, pb.info.height]);
  let sum = 0;
  for (let i = 0; i < pa.data.length; i++) sum += Math.abs(pa.data[i] - pb.data[i]);
  return sum / pa.data.length;
}

/** The unwatermarked page with `line`'s overlay drawn over it, as the server should have. */
async function drawnOver(plain: Buffer, line: string): Promise<Buffer> {
  const { width, height } = await sharp(plain).metadata();
  return sharp(plain).composite([{ input: watermarkOverlay(width!, height!, line), top: 0, left: 0 }]).png().toBuffer();
}

/** Lines of the minute just passed and this one: a rendering may straddle a minute's end. */
const linesAround = (who: string | null, ip: string) => [watermarkLine(who, ip, new Date(Date.now() - 60_000)), watermarkLine(who, ip)];

describe("the watermark on page images", () => {
  it("draws the visitor's email and the time into the pixels: the page differs from the plain one exactly by that line's overlay", async () => {
    const { share, doc } = await scene(false);
    const plain = await pageOf(share.key, doc.version.id, 1, { w: "800" });
    expect(plain.status).toBe(200);
    expect(plain.headers.get("cache-control")).not.toContain("no-store");

    await setGate(share.id, gate(true));
    const email = "reader.one@example.test";
    const { token } = await visitorToken(share.id, email);
    const marked = await pageOf(share.key, doc.version.id, 1, { w: "800", access: token });
    expect(marked.status).toBe(200);
    expect(marked.headers.get("content-type")).toBe("image/png");
    expect(marked.headers.get("cache-control")).toBe("private, no-store");
    expect(await meanDifference(plain.bytes, marked.bytes)).toBeGreaterThan(2);

    // The server's pixels are the plain page with this very line over it, not another one.
    const distances = await Promise.all(linesAround(email, "").map(async (line) => meanDifference(await drawnOver(plain.bytes, line), marked.bytes)));
    const best = Math.min(...distances);
    expect(best).toBeLessThan(0.5);
    const otherLine = watermarkLine("reader.two@example.test", "");
    expect(await meanDifference(await drawnOver(plain.bytes, otherLine), marked.bytes)).toBeGreaterThan(best * 2 + 0.2);
  }, 90_000);

  it("the line can be read back from the image (OCR of the page turned back level)", async () => {
    const { share, doc } = await scene(true);
    const email = "ocr.reader@example.test";
    const { token } = await visitorToken(share.id, email);
    const marked = await pageOf(share.key, doc.version.id, 1, { access: token });
    expect(marked.status).toBe(200);
    const level = path.join(work, "level.png");
    // The lines climb 30°: turned back, thresholded to the red ink, they read as plain rows.
    await sharp(marked.bytes).rotate(30, { background: "#ffffff" }).removeAlpha().extractChannel(1).threshold(235).png().toFile(level);
    const { stdout } = await run("tesseract", [level, "-", "--psm", "6"], { timeout: 60_000 });
    expect(stdout.replace(/\s+/g, "")).toContain(email);
  }, 90_000);

  it("an anonymous visitor's page carries the address; text is cleaned of control and bidi characters and escaped", async () => {
    expect(watermarkLine(null, "203.0.113.9", new Date("2026-11-27T21:58:31Z"))).toBe("203.0.113.9 · 2026-11-27 21:58 UTC");
    expect(watermarkLine("ev\u202eil@x.test\u0000", "203.0.113.9", new Date("2026-11-27T21:58:31Z"))).toBe("evil@x.test · 2026-11-27 21:58 UTC");
    expect(cleanWatermarkText("\u2066a\u200fb\u0007c")).toBe("abc");
    const overlay = watermarkOverlay(400, 300, `<script>&"'@x.test`).toString();
    expect(overlay).toContain("&lt;script&gt;&amp;&quot;&apos;@x.test");
    expect(overlay).not.toContain("<script>");
    // A hostile line still renders (sharp parses the escaped SVG).
    const drawn = await drawnOver(await sharp({ create: { width: 400, height: 300, channels: 3, background: "#ffffff" } }).png().toBuffer(), `<script>&"'\u202e@x.test`);
    expect((await sharp(drawn).metadata()).width).toBe(400);

    const { share, doc } = await scene(true);
    const { token } = await visitorToken(share.id, null);
    const plainShare = await scene(false);
    const marked = await pageOf(share.key, doc.version.id, 1, { w: "800", access: token });
    const plain = await pageOf(plainShare.share.key, plainShare.doc.version.id, 1, { w: "800" });
    expect(marked.status).toBe(200);
    expect(await meanDifference(plain.bytes, marked.bytes)).toBeGreaterThan(2);
  }, 90_000);
});

describe("watermarked downloads", () => {
  it("a PDF downloaded through a watermarked link carries the visitor's email on every page; other files come as they are", async () => {
    const { share, doc, text, pdf } = await scene(true);
    const email = "downloader@example.test";
    const { token: access } = await visitorToken(share.id, email);
    const token = await downloadToken(share.key, doc.file.guid, access);
    const res = await get(`/api/file/download?token=${encodeURIComponent(token)}`);
    expect(res.status, res.body.toString()).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("cache-control")).toContain("no-store");
    expect(res.headers.get("accept-ranges")).toBeNull();
    expect(Number(res.headers.get("content-length"))).toBe(res.body.length);
    expect(res.body.equals(pdf)).toBe(false);
    expect(res.body.subarray(0, 5).toString()).toBe("%PDF-");
    const file = path.join(work, "stamped.pdf");
    await writeFile(file, res.body);
    const pages = (await run("pdftotext", ["-raw", file, "-"])).stdout.split("\f");
    expect(pages.filter((p) => p.trim())).toHaveLength(2);
    expect(pages[0]).toContain("Quarterly figures");
    for (const page of pages.slice(0, 2)) expect(page.replace(/\s+/g, "")).toContain(email);

    // Not a file of ours lying around: the stamped copy is removed once sent.
    // (removed just after the last byte: the client may read it a moment before)
    let leftovers: string[] = [];
    for (let i = 0; i < 50; i++) {
      leftovers = (await readdirSafe(os.tmpdir())).filter((n) => n.startsWith("coffre-watermark-") && n.endsWith(".pdf"));
      if (leftovers.length === 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(leftovers).toEqual([]);

    const textToken = await downloadToken(share.key, text.file.guid, access);
    const plainText = await get(`/api/file/download?token=${encodeURIComponent(textToken)}`);
    expect(plainText.body.toString()).toBe("plain words");
  }, 90_000);

  it("the visitor named by a download token cannot be changed (the token stops working); without a visitor, the address is stamped", async () => {
    const { share, doc } = await scene(true);
    const { token: access, visitorId } = await visitorToken(share.id, "first@example.test");
    const token = await downloadToken(share.key, doc.file.guid, access);
    expect(token.endsWith(`.v${visitorId}`)).toBe(true);
    const forged = token.replace(/\.v\d+$/, `.v${visitorId + 1}`);
    expect((await get(`/api/file/download?token=${encodeURIComponent(forged)}`)).status).toBe(403);

    const anonymous = await downloadToken(share.key, doc.file.guid);
    expect(anonymous).not.toMatch(/\.v\d+$/);
    const res = await get(`/api/file/download?token=${encodeURIComponent(anonymous)}`);
    expect(res.status).toBe(200);
    const file = path.join(work, "anonymous.pdf");
    await writeFile(file, res.body);
    expect((await run("pdftotext", ["-raw", file, "-"])).stdout).toMatch(/(127\.0\.0\.1|::1|unknown|anonymous)[^\n]*UTC/);
  }, 90_000);

  it("an unwatermarked link downloads the original bytes; a watermarked link refuses the zip (403)", async () => {
    const plain = await scene(false);
    const token = await downloadToken(plain.share.key, plain.doc.file.guid);
    const res = await get(`/api/file/download?token=${encodeURIComponent(token)}`);
    expect(res.status).toBe(200);
    expect(res.body.equals(plain.pdf)).toBe(true);
    expect((await get(`/api/zip/share/${plain.share.key}`)).status).toBe(200);

    const marked = await scene(true);
    const zip = await get(`/api/zip/share/${marked.share.key}`);
    expect(zip.status).toBe(403);
    expect(JSON.parse(zip.body.toString()).error).toMatch(/watermark/);
  }, 90_000);

  it("a PDF over the size cap is a 413, never the unwatermarked file", async () => {
    process.env.WATERMARK_MAX_PDF_MB = "0.0001";
    const { share, doc } = await scene(true);
    const res = await get(`/api/file/download?token=${encodeURIComponent(await downloadToken(share.key, doc.file.guid))}`);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body.toString())).toMatchObject({ code: "payload_too_large" });
    expect(JSON.parse(res.body.toString()).error).toMatch(/watermark/);
  }, 90_000);

  it("a heavy PDF is stamped off the event loop: health stays fast, and past the time limit it is a 413", async () => {
    process.env.WATERMARK_TIMEOUT_MS = "800";
    const { share, doc } = await scene(true, makeManyPagesPdf(100_000));
    const token = await downloadToken(share.key, doc.file.guid);
    const measured = await healthWhile(get(`/api/file/download?token=${encodeURIComponent(token)}`));
    expectHealthFast(measured);
    expect(measured.result.status).toBe(413);
    expect(JSON.parse(measured.result.body.toString()).error).toMatch(/too large or too complex to be watermarked/);
  }, 120_000);
});

async function readdirSafe(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => []);
}

describe("no way around the watermark", () => {
  it("a watermarked link's preview tokens show nothing through the preview routes (403): its pages come from the page images", async () => {
    const { share, doc } = await scene(true);
    const res = await call(guidTokenRoute.POST, { method: "POST", params: { key: share.key, guid: doc.file.guid, type: "preview" } });
    expect(res.status, res.text).toBe(200);
    const token = res.body.token as string;
    const content = await callBytes(contentRoute.GET, { params: { fileId: String(doc.version.id) }, query: { token, page: "1" } });
    expect(content.status).toBe(403);
    expect(JSON.parse(content.bytes.toString()).error).toMatch(/watermark/);
    expect((await callBytes(previewRoute.GET, { params: { fileId: String(doc.version.id) }, query: { token } })).status).toBe(403);
    // The same link without the watermark previews as before.
    await setGate(share.id, gate(false));
    expect((await callBytes(contentRoute.GET, { params: { fileId: String(doc.version.id) }, query: { token, page: "1" } })).status).toBe(200);
  }, 90_000);
});
