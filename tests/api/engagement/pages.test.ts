import { eq } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { shares, versionRenditions } from "@/db/schema";
import { getBlobStore } from "@/lib/storage";
import { Readable } from "node:stream";
import { makePreview } from "@/lib/server/previews/make-preview";
import { createTestUser } from "../../helpers/factories";
import { OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { createFolder, uploadText } from "../../helpers/files";
import { expectError } from "../../helpers/http";
import { fakeZip, makePdf, makePng, uploadBytes } from "../previews/fixtures";
import { createShare, unlock } from "../shares/share-helpers";
import { expectImage, pageOf, pagesOf, visitorToken } from "./page-helpers";

beforeAll(openDatabase, OPEN_TIMEOUT);

const PDF_TEXTS = ["First page words", "Second page words", "Third page words"];

/** An owner's folder with a three-page PDF, a PNG, a text and a Word document, shared with `flags`. */
async function scene(flags = 2, extra: Record<string, unknown> = {}) {
  const owner = await createTestUser();
  const folder = await createFolder(owner, owner.privateRootId!, "Board pack");
  const pdf = makePdf(PDF_TEXTS);
  const png = await makePng(2400, 1200);
  const doc = await uploadBytes(owner, folder.id, "report.pdf", pdf, "application/pdf");
  const image = await uploadBytes(owner, folder.id, "photo.png", png, "image/png");
  const text = await uploadText(owner, folder.id, "notes.txt", "plain words");
  const word = await uploadBytes(owner, folder.id, "memo.docx", fakeZip());
  const share = await createShare(owner, { roots: [{ id: folder.id, entity_type: 0 }], flags, ...extra });
  return { owner, folder, pdf, png, doc, image, text, word, share };
}

const json = (bytes: Buffer) => JSON.parse(bytes.toString()) as { code: string; error: string };

describe("GET /share/key/(key)/file/(fileId)/pages", () => {
  it("counts a PDF's pages, before and after its previews job, and names the file", async () => {
    const { share, doc } = await scene();
    const before = await pagesOf(share.key, doc.version.id);
    expect(before.status, before.text).toBe(200);
    expect(before.body).toEqual({ file_id: doc.version.id, name: "report.pdf", kind: "pdf", pages: 3, ready: true });
    await makePreview(await getDb(), doc.version.id);
    expect((await pagesOf(share.key, doc.version.id)).body).toMatchObject({ pages: 3, ready: true });
  }, 90_000);

  it("an image has one page; an office document waits for its PDF rendition, then shows its pages", async () => {
    const { share, image, word } = await scene(4);
    expect((await pagesOf(share.key, image.version.id)).body).toEqual({ file_id: image.version.id, name: "photo.png", kind: "image", pages: 1, ready: true });
    expect((await pagesOf(share.key, word.version.id)).body).toEqual({ file_id: word.version.id, name: "memo.docx", kind: "office", pages: 0, ready: false });
    expect((await pageOf(share.key, word.version.id, 1)).status).toBe(404);
    // The previews job's rendition, made here without LibreOffice: a two-page PDF.
    const pdf = makePdf(["Memo one", "Memo two"]);
    const blob = await getBlobStore().put(Readable.from([pdf]));
    await (await getDb()).insert(versionRenditions).values({ versionId: word.version.id, kind: "pdf", blobId: blob.id, mime: "application/pdf", size: pdf.length });
    expect((await pagesOf(share.key, word.version.id)).body).toMatchObject({ kind: "office", pages: 2, ready: true });
    const second = await pageOf(share.key, word.version.id, 2);
    expect(second.status).toBe(200);
    expectImage(second.bytes, "png");
  }, 90_000);

  it("other formats have no pages (415); a file outside the share is 404", async () => {
    const { share, text } = await scene();
    expectError(await pagesOf(share.key, text.version.id), 415, "unsupported_media_type");
    const elsewhere = await scene();
    expectError(await pagesOf(share.key, elsewhere.doc.version.id), 404, "not_found");
    expect((await pageOf(share.key, elsewhere.doc.version.id, 1)).status).toBe(404);
  }, 90_000);

  it("refuses hostile paths: NUL, bidi characters, a huge id, a non-number page, a width not offered", async () => {
    const { share, doc } = await scene();
    expectError(await pagesOf(share.key, "1\u0000"), 400);
    expectError(await pagesOf(share.key, "\u202e1"), 400);
    expectError(await pagesOf(share.key, "99999999999"), 400);
    expectError(await pagesOf(`${share.key}\u0000`, doc.version.id), 400);
    expect((await pageOf(share.key, doc.version.id, "x")).status).toBe(400);
    expect((await pageOf(share.key, doc.version.id, 0)).status).toBe(400);
    expect((await pageOf(share.key, doc.version.id, 1, { w: "5000" })).status).toBe(400);
  }, 90_000);
});

describe("GET /share/key/(key)/file/(fileId)/page/(page)", () => {
  it("renders a PDF's page as a PNG (never the original), at the width asked, and 404 past the last page", async () => {
    const { share, doc, pdf } = await scene();
    const page = await pageOf(share.key, doc.version.id, 2);
    expect(page.status, page.bytes.toString()).toBe(200);
    expect(page.headers.get("content-type")).toBe("image/png");
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(page.headers.get("cache-control")).toContain("private");
    expectImage(page.bytes, "png");
    expect(page.bytes.includes(pdf.subarray(0, 8))).toBe(false);
    const full = await sharp(page.bytes).metadata();
    expect(Math.max(full.width!, full.height!)).toBe(1600);
    const small = await pageOf(share.key, doc.version.id, 2, { w: "800" });
    const meta = await sharp(small.bytes).metadata();
    expect(Math.max(meta.width!, meta.height!)).toBe(800);
    // Pages differ: the second is not the first.
    expect((await pageOf(share.key, doc.version.id, 1)).bytes.equals(page.bytes)).toBe(false);
    const past = await pageOf(share.key, doc.version.id, 4);
    expect(past.status).toBe(404);
    expect(json(past.bytes).error).toMatch(/3 page/);
  }, 90_000);

  it("an image is re-encoded as WebP of at most the width asked; it has no page 2", async () => {
    const { share, image, png } = await scene();
    const page = await pageOf(share.key, image.version.id, 1, { w: "1200" });
    expect(page.status).toBe(200);
    expectImage(page.bytes, "webp");
    expect(page.bytes.equals(png)).toBe(false);
    expect((await sharp(page.bytes).metadata()).width).toBe(1200);
    expect((await pageOf(share.key, image.version.id, 2)).status).toBe(404);
  }, 90_000);
});

describe("who may see the pages", () => {
  it("a download-only link has no page view (403)", async () => {
    const { share, doc } = await scene(1);
    expectError(await pagesOf(share.key, doc.version.id), 403, "forbidden");
    const page = await pageOf(share.key, doc.version.id, 1);
    expect(page.status).toBe(403);
  }, 90_000);

  it("a password link needs its own access token (401 without, with another link's or a stranger's); its own opens it", async () => {
    const { share, doc } = await scene(2, { password: "open-sesame" });
    expectError(await pagesOf(share.key, doc.version.id), 401, "unauthorized");
    expect((await pageOf(share.key, doc.version.id, 1)).status).toBe(401);
    const other = await scene(2, { password: "other-secret" });
    const otherToken = await unlock(other.share.key, "other-secret");
    expectError(await pagesOf(share.key, doc.version.id, otherToken), 401, "unauthorized");
    expect((await pageOf(share.key, doc.version.id, 1, { access: otherToken })).status).toBe(401);
    // A visitor token of another link is no key to this one either.
    const { token: visitorOfOther } = await visitorToken(other.share.id, "someone@example.test");
    expectError(await pagesOf(share.key, doc.version.id, visitorOfOther), 401, "unauthorized");
    expectError(await pagesOf(share.key, doc.version.id, "made-up-token"), 401, "unauthorized");
    const own = await unlock(share.key, "open-sesame");
    expect((await pagesOf(share.key, doc.version.id, own)).body).toMatchObject({ pages: 3 });
    expect((await pageOf(share.key, doc.version.id, 1, { access: own })).status).toBe(200);
  }, 90_000);

  it("an ended link serves no page (410); an unknown key is 404", async () => {
    const { share, doc } = await scene();
    await (await getDb()).update(shares).set({ expirationDate: new Date(Date.now() - 1000) }).where(eq(shares.id, share.id));
    expectError(await pagesOf(share.key, doc.version.id), 410, "link_expired");
    expect((await pageOf(share.key, doc.version.id, 1)).status).toBe(410);
    expectError(await pagesOf("NoSuchKey123", doc.version.id), 404);
  }, 90_000);
});
