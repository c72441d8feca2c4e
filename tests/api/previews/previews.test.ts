import { and, eq } from "drizzle-orm";
import sharp from "sharp";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as fileRoute from "@/app/api/file/[fileId]/route";
import * as replaceRoute from "@/app/api/file/[fileId]/upload/route";
import * as createFileRoute from "@/app/api/file/route";
import * as folderCreateRoute from "@/app/api/folder/route";
import * as mixerRoute from "@/app/api/mixer/[fileId]/route";
import { getDb } from "@/db";
import { blobs, events, files, folders, jobs, versionPreviews, versionTexts } from "@/db/schema";
import { thumbnailStateResponse } from "@/lib/contracts/previews";
import { handlerFor } from "@/lib/server/jobs/registry";
import { makePreview } from "@/lib/server/previews/make-preview";
import { verifyThumbToken } from "@/lib/server/previews/thumb-token";
import { extractText } from "@/lib/server/texts/extract-text";
import { extractFully } from "../texts/text-fixtures";
import { createTestUser } from "../../helpers/factories";
import { createFileScene, OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { allRightsBut, createFolder, grantRight, uploadText } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired, expectRefusedFor } from "../../helpers/security";
import { callBytes, fakeMp4, magic, makePdf, makePng, makePngBomb, uploadBytes } from "./fixtures";

beforeAll(openDatabase, OPEN_TIMEOUT);
beforeEach(() => {
  process.env.PREVIEW_WAIT_MS = "300";
});
afterEach(() => {
  delete process.env.PREVIEW_WAIT_MS;
});

const at = (versionId: number) => ({ params: { fileId: String(versionId) } });
const thumbnail = (token: string | null, versionId: number, query: Record<string, string> = {}, headers: Record<string, string> = {}) =>
  callBytes(mixerRoute.GET, { ...at(versionId), token, query, headers });
const state = (token: string, versionId: number) => call(mixerRoute.GET, { ...at(versionId), token, query: { state: 1 } });
const previewRow = async (versionId: number) => (await (await getDb()).select().from(versionPreviews).where(eq(versionPreviews.versionId, versionId)))[0];

async function imageScene() {
  const { owner, other, folder } = await createFileScene();
  const { version, file } = await uploadBytes(owner, folder.id, "photo.png", await makePng(600, 300), "image/png");
  return { owner, other, folder, file, version };
}

describe("preview jobs", () => {
  it("a committed version gets pending rows and both jobs, with handlers registered", async () => {
    const { version } = await imageScene();
    const db = await getDb();
    expect(await previewRow(version.id)).toMatchObject({ state: "pending", thumbBlobId: null });
    const [text] = await db.select().from(versionTexts).where(eq(versionTexts.versionId, version.id));
    expect(text.state).toBe("pending");
    const queued = await db.select({ kind: jobs.kind }).from(jobs).where(eq(jobs.dedupeKey, `previews.make:${version.id}`));
    expect(queued).toEqual([{ kind: "previews.make" }]);
    expect(await db.select({ kind: jobs.kind }).from(jobs).where(eq(jobs.dedupeKey, `texts.extract:${version.id}`))).toEqual([{ kind: "texts.extract" }]);
    expect(await handlerFor("previews.make")).toBeTypeOf("function");
    expect(await handlerFor("texts.extract")).toBeTypeOf("function");
  });

  it("makes a 256 px WebP thumbnail of an image, registered as a blob, served by /mixer with an ETag", async () => {
    const { owner, version } = await imageScene();
    expect(thumbnailStateResponse.parse((await state(owner.token, version.id)).body)).toEqual({ state: "pending" });
    await makePreview(await getDb(), version.id);
    expect((await state(owner.token, version.id)).body).toEqual({ state: "available" });
    const row = await previewRow(version.id);
    expect(row).toMatchObject({ state: "available", fileType: "image", thumbMime: "image/webp", error: null });
    const db = await getDb();
    expect(await db.select().from(blobs).where(eq(blobs.id, row.thumbBlobId!))).toHaveLength(1);

    const res = await thumbnail(owner.token, version.id);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/webp");
    expect(magic(res.bytes).webp).toBe(true);
    expect(await sharp(res.bytes).metadata()).toMatchObject({ format: "webp", width: 256, height: 128 });
    const etag = res.headers.get("etag")!;
    expect(etag).toBe(`"${row.thumbBlobId}"`);
    expect((await thumbnail(owner.token, version.id, {}, { "if-none-match": etag })).status).toBe(304);
  });

  it("renders the first page of a PDF and counts its pages; extracts the text of every page", async () => {
    const { owner, folder } = await createFileScene();
    const { version } = await uploadBytes(owner, folder.id, "report.pdf", makePdf(["alpha zebra", "quartz omega"]), "application/pdf");
    const db = await getDb();
    await makePreview(db, version.id);
    expect(await previewRow(version.id)).toMatchObject({ state: "available", fileType: "document", pageCount: 2 });
    const res = await thumbnail(owner.token, version.id);
    expect(res.status).toBe(200);
    const meta = await sharp(res.bytes).metadata();
    expect(meta).toMatchObject({ format: "webp", height: 256 });
    expect(meta.width).toBe(192);
    // Mostly white paper with dark text drawn on it.
    const stats = await sharp(res.bytes).stats();
    expect(stats.channels[0].max).toBeGreaterThan(200);
    expect(stats.channels[0].min).toBeLessThan(100);

    await extractText(db, version.id);
    const [text] = await db.select().from(versionTexts).where(eq(versionTexts.versionId, version.id));
    expect(text.state).toBe("available");
    expect(text.content).toMatch(/alpha zebra[\s\S]*quartz omega/);
  });

  it("extracts plain text; gives state none to formats without text or thumbnail", async () => {
    const { owner, folder } = await createFileScene();
    const db = await getDb();
    const { version: notes } = await uploadText(owner, folder.id, "notes.md", "# Title\nsome searchable words\u0000here");
    await extractText(db, notes.id);
    const [text] = await db.select().from(versionTexts).where(eq(versionTexts.versionId, notes.id));
    expect(text).toMatchObject({ state: "available", content: "# Title\nsome searchable words here" });
    await makePreview(db, notes.id);
    expect(await previewRow(notes.id)).toMatchObject({ state: "none", fileType: null });
    expectError(await state(owner.token, notes.id), 415, "unsupported_media_type");

    // Without ffmpeg (the converters' paths are settings; office-video.test.ts covers the machine that has it).
    const { version: movie } = await uploadBytes(owner, folder.id, "clip.mp4", fakeMp4(), "video/mp4");
    const saved = { ffmpeg: process.env.PREVIEW_FFMPEG, ffprobe: process.env.PREVIEW_FFPROBE };
    process.env.PREVIEW_FFMPEG = process.env.PREVIEW_FFPROBE = "/nonexistent/ffmpeg";
    try {
      await makePreview(db, movie.id);
    } finally {
      for (const [key, value] of [["PREVIEW_FFMPEG", saved.ffmpeg], ["PREVIEW_FFPROBE", saved.ffprobe]] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
    expect(await previewRow(movie.id)).toMatchObject({ state: "none", error: expect.stringMatching(/ffmpeg/) });
    const unsupported = await thumbnail(owner.token, movie.id);
    expect(unsupported.status).toBe(415);
    await extractText(db, movie.id);
    expect((await db.select().from(versionTexts).where(eq(versionTexts.versionId, movie.id)))[0].state).toBe("none");
  });

  it("a decompression bomb ends failed, with the reason, without decoding it", async () => {
    const { owner, folder } = await createFileScene();
    const { version } = await uploadBytes(owner, folder.id, "bomb.png", await makePngBomb(), "image/png");
    const before = process.memoryUsage().rss;
    await makePreview(await getDb(), version.id);
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
    const row = await previewRow(version.id);
    expect(row).toMatchObject({ state: "failed", thumbBlobId: null });
    expect(row.error).toMatch(/pixel limit/i);
    expect((await state(owner.token, version.id)).body).toEqual({ state: "failed" });
    const res = await call(mixerRoute.GET, { ...at(version.id), token: owner.token });
    expectError(res, 404, "not_found");
    expect(res.body.details).toMatchObject({ state: "failed" });
  });

  it("a broken PDF ends failed", async () => {
    const { owner, folder } = await createFileScene();
    const { version } = await uploadBytes(owner, folder.id, "broken.pdf", Buffer.from("%PDF-1.4\nnothing else"), "application/pdf");
    await makePreview(await getDb(), version.id);
    expect((await previewRow(version.id)).state).toBe("failed");
  });

  it("copies reuse the finished derivatives of their source", async () => {
    const { owner, folder, version } = await imageScene();
    const db = await getDb();
    await makePreview(db, version.id);
    // An image's text is its OCR (a job of its own): finished once every slice ran.
    await extractFully(version.id);
    const copy = await call(createFileRoute.POST, { method: "POST", token: owner.token, query: { copy: version.id }, body: { name: "copy.png", parent_id: folder.id } });
    expect(copy.status, copy.text).toBe(201);
    const source = await previewRow(version.id);
    expect(await previewRow(copy.body.id)).toMatchObject({ state: "available", thumbBlobId: source.thumbBlobId, fileType: "image" });
    expect(await db.select().from(jobs).where(eq(jobs.dedupeKey, `previews.make:${copy.body.id}`))).toEqual([]);
  });
  it("a folder copy takes the finished thumbnails and texts of its files", async () => {
    const { owner, folder, version } = await imageScene();
    const db = await getDb();
    await makePreview(db, version.id);
    // An image's text is its OCR (a job of its own): finished once every slice ran.
    await extractFully(version.id);
    const { version: unprocessed } = await uploadText(owner, folder.id, "later.txt", "x");
    const dest = await createFolder(owner, owner.privateRootId!, "dest");
    const res = await call(folderCreateRoute.POST, { method: "POST", token: owner.token, query: { copy: folder.id }, body: { parent_id: dest.id } });
    expect(res.status, res.text).toBe(201);
    const [copied] = await db.select().from(folders).where(and(eq(folders.parentId, dest.id)));
    const copies = await db.select({ name: files.name, versionId: files.currentVersionId }).from(files).where(eq(files.folderId, copied.id));
    const photo = copies.find((c) => c.name === "photo.png")!;
    const later = copies.find((c) => c.name === "later.txt")!;
    expect(await previewRow(photo.versionId!)).toMatchObject({ state: "available", thumbBlobId: (await previewRow(version.id)).thumbBlobId });
    expect((await db.select().from(versionTexts).where(eq(versionTexts.versionId, photo.versionId!)))[0].state).toBe("available");
    // Not processed yet at the source: no rows; /mixer queues it on demand.
    expect(await previewRow(unprocessed.id)).toMatchObject({ state: "pending" });
    expect(await previewRow(later.versionId!)).toBeUndefined();
  });
  it("replacing the content of a version makes its thumbnail and text again", async () => {
    const { owner, version } = await imageScene();
    const db = await getDb();
    await makePreview(db, version.id);
    const before = await previewRow(version.id);
    const res = await call(replaceRoute.PUT, {
      method: "PUT",
      params: { fileId: String(version.id) },
      token: owner.token,
      headers: { "content-type": "application/octet-stream" },
      rawBody: await makePng(100, 400),
    });
    expect(res.status, res.text).toBe(200);
    expect(await previewRow(version.id)).toMatchObject({ state: "pending", thumbBlobId: null });
    await makePreview(db, version.id);
    const after = await previewRow(version.id);
    expect(after.thumbBlobId).not.toBe(before.thumbBlobId);
    expect(await sharp((await thumbnail(owner.token, version.id)).bytes).metadata()).toMatchObject({ width: 64, height: 256 });
  });
});

describe("GET /api/mixer/(fileId)", () => {
  it("waits while the thumbnail is being made, then answers 423", async () => {
    const { owner, version } = await imageScene();
    const started = Date.now();
    const res = await call(mixerRoute.GET, { ...at(version.id), token: owner.token });
    expectError(res, 423, "locked");
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(res.body.details).toEqual({ state: "pending" });
  });

  it("serves a thumbnail made while it waits", async () => {
    const { owner, version } = await imageScene();
    process.env.PREVIEW_WAIT_MS = "20000";
    const waiting = thumbnail(owner.token, version.id);
    await makePreview(await getDb(), version.id);
    const res = await waiting;
    expect(res.status).toBe(200);
    expect(magic(res.bytes).webp).toBe(true);
  });

  it("queues the thumbnail of a version that predates previews", async () => {
    const { owner, version } = await imageScene();
    const db = await getDb();
    await db.delete(versionPreviews).where(eq(versionPreviews.versionId, version.id));
    expect((await state(owner.token, version.id)).body).toEqual({ state: "pending" });
    await makePreview(db, version.id);
    expect((await thumbnail(owner.token, version.id)).status).toBe(200);
  });

  it("needs a session or a thumbnail token, and the read right", async () => {
    const { owner, other, folder, version } = await imageScene();
    await makePreview(await getDb(), version.id);
    await expectAuthRequired(mixerRoute.GET, at(version.id));
    await expectRefusedFor(other.token, mixerRoute.GET, at(version.id));
    const lacking = await createTestUser();
    await grantRight(folder.id, lacking.id, allRightsBut("read"));
    await expectRefusedFor(lacking.token, mixerRoute.GET, at(version.id));
    expectError(await call(mixerRoute.GET, { params: { fileId: "999999999" }, token: owner.token }), 404, "not_found");
    expectError(await call(mixerRoute.GET, { params: { fileId: "abc" }, token: owner.token }), 400, "invalid_request");
    expectError(await call(mixerRoute.POST, { ...at(version.id), method: "POST", token: owner.token }), 405);
  });

  it("the full File carries thumb_token and file_type; the token loads the thumbnail without a session", async () => {
    const { owner, folder, version } = await imageScene();
    const { version: text } = await uploadText(owner, folder.id, "plain.txt", "words");
    const read = (id: number, query: Record<string, string>) => call(fileRoute.GET, { params: { fileId: String(id) }, token: owner.token, query });
    const pending = await read(version.id, { full: "1" });
    // Being made: announced, as /mixer waits for it.
    expect(pending.body).toMatchObject({ file_type: "image", thumb_token: expect.any(String) });
    await makePreview(await getDb(), version.id);
    const full = await read(version.id, { full: "1" });
    expect(full.body.file_type).toBe("image");
    const token: string = full.body.thumb_token;
    expect(await verifyThumbToken(token)).toEqual({ versionId: version.id, userId: owner.id });
    expect((await read(version.id, {})).body.thumb_token).toBeUndefined();
    const plain = await read(text.id, { full: "1" });
    expect(plain.body.thumb_token).toBeUndefined();
    expect(plain.body.file_type).toBeUndefined();

    const res = await thumbnail(null, version.id, { token });
    expect(res.status).toBe(200);
    expect(magic(res.bytes).webp).toBe(true);
    // Another version, a forged or expired token, a user who lost the right: refused.
    expectError(await call(mixerRoute.GET, { ...at(text.id), query: { token } }), 403, "forbidden");
    expectError(await call(mixerRoute.GET, { ...at(version.id), query: { token: token.slice(0, -2) + (token.endsWith("AA") ? "BB" : "AA") } }), 403);
    expect(await verifyThumbToken(token, Date.now() + 26 * 3600_000)).toBeNull();
    const sharedTo = await createTestUser();
    await grantRight(folder.id, sharedTo.id, { read: true });
    const sharedToken: string = (await call(fileRoute.GET, { params: { fileId: String(version.id) }, token: sharedTo.token, query: { full: "1" } })).body.thumb_token;
    expect((await thumbnail(null, version.id, { token: sharedToken })).status).toBe(200);
    await grantRight(folder.id, sharedTo.id, allRightsBut("read"));
    expectError(await call(mixerRoute.GET, { ...at(version.id), query: { token: sharedToken } }), 403);
  });
});

describe("GET /api/file/(fileId)/infos", () => {
  it("gives the page count of a PDF, before and after the job", async () => {
    const infosRoute = await import("@/app/api/file/[fileId]/infos/route");
    const { owner, other, folder } = await createFileScene();
    const { version } = await uploadBytes(owner, folder.id, "three.pdf", makePdf(["one", "two", "three"]), "application/pdf");
    const ask = (token: string, id: number) => call(infosRoute.GET, { params: { fileId: String(id) }, token });
    expect((await ask(owner.token, version.id)).body).toEqual({ length: 3 });
    await makePreview(await getDb(), version.id);
    expect((await ask(owner.token, version.id)).body).toEqual({ length: 3 });

    const { version: text } = await uploadText(owner, folder.id, "notes.txt", "x");
    expectError(await ask(owner.token, text.id), 415, "unsupported_media_type");
    const { version: doc } = await uploadText(owner, folder.id, "letter.docx", "x");
    expectError(await ask(owner.token, doc.id), 415, "unsupported_media_type");
    const { version: broken } = await uploadBytes(owner, folder.id, "broken.pdf", Buffer.from("%PDF-1.4 no"), "application/pdf");
    expectError(await ask(owner.token, broken.id), 415, "unsupported_media_type");
    expectError(await ask(owner.token, 999999999), 404, "not_found");

    await expectAuthRequired(infosRoute.GET, at(version.id));
    await expectRefusedFor(other.token, infosRoute.GET, at(version.id));
    const lacking = await createTestUser();
    await grantRight(folder.id, lacking.id, allRightsBut("read"));
    await expectRefusedFor(lacking.token, infosRoute.GET, at(version.id));
  });
});

describe("timeline of previews", () => {
  it("the preview event is recorded by the preview page only", async () => {
    const previewRoute = await import("@/app/api/preview/[fileId]/route");
    const { owner, file, version } = await imageScene();
    await makePreview(await getDb(), version.id);
    await thumbnail(owner.token, version.id);
    const db = await getDb();
    const count = async () => (await db.select().from(events).where(and(eq(events.targetId, file.id), eq(events.targetType, "file"), eq(events.type, 4)))).length;
    expect(await count()).toBe(0);
    expect((await call(previewRoute.GET, { ...at(version.id), token: owner.token })).status).toBe(200);
    expect(await count()).toBe(1);
  });
});
