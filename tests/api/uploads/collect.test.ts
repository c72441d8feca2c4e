import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { and, eq, inArray, sql } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { blobs, emails, jobs, uploads, users } from "@/db/schema";
import { collectBlobs } from "@/lib/server/blobs/collect-blobs";
import { handlerFor } from "@/lib/server/jobs/registry";
import { enqueuePeriodicJobs } from "@/lib/server/jobs/scheduler";
import { collectUploads, uploadExpiryMs } from "@/lib/server/uploads/collect-uploads";
import { chunkDir, chunkedUploadId, tusFile, tusUploadId } from "@/lib/server/uploads/upload-sessions";
import { getBlobStore } from "@/lib/storage";
import { POST as upload } from "@/app/api/file/upload/route";
import { PUT as replace } from "@/app/api/file/[fileId]/upload/route";
import { POST as fileTus } from "@/app/api/file/tus/route";
import { POST as tusCreate } from "@/app/api/tus/[[...path]]/route";
import { createTestUser } from "../../helpers/factories";
import { uploadText } from "../../helpers/files";
import { ageBlob, blobExists } from "../../helpers/blob-files";
import { call } from "../../helpers/http";
import { multipartBody, openDatabase } from "../../helpers/upload-factories";

const HOUR = 3_600_000;
const exists = (p: string) => fs.stat(p).then(() => true, () => false);
const ago = (ms: number) => new Date(Date.now() - ms);

async function backdateBlobRow(id: string, ms: number) {
  const db = await getDb();
  await db.update(blobs).set({ createdAt: ago(ms) }).where(eq(blobs.id, id));
}

async function storeBlob(text: string, options: { row?: boolean; ageMs?: number } = {}) {
  const blob = await getBlobStore().put(Readable.from([Buffer.from(text)]));
  if (options.row) {
    const db = await getDb();
    await db.insert(blobs).values({ id: blob.id, size: blob.size, md5: blob.md5, createdAt: ago(options.ageMs ?? 0) });
  }
  if (options.ageMs) await ageBlob(blob.id, options.ageMs);
  return blob;
}

beforeAll(openDatabase, 180_000);

describe("job blobs.collect", () => {
  it("deletes unreferenced blobs past the grace period and keeps referenced or young ones", async () => {
    expect(await handlerFor("blobs.collect")).toBeTypeOf("function");
    const user = await createTestUser();
    const oldUnused = await storeBlob("old unused", { row: true, ageMs: 2 * HOUR });
    const youngUnused = await storeBlob("young unused", { row: true });
    const { version } = await uploadText(user, user.privateRootId!, "kept.txt", "kept");
    await backdateBlobRow(version.blobId!, 2 * HOUR);

    await collectBlobs(await getDb());
    const db = await getDb();
    const left = new Set((await db.select({ id: blobs.id }).from(blobs).where(inArray(blobs.id, [oldUnused.id, youngUnused.id, version.blobId!]))).map((r) => r.id));
    expect(left).toEqual(new Set([youngUnused.id, version.blobId!]));
    expect(await blobExists(oldUnused.id)).toBe(false);
    expect(await blobExists(youngUnused.id)).toBe(true);
    expect(await blobExists(version.blobId!)).toBe(true);
  });

  it("deletes old store files that no row knows, but not profile pictures nor recent writes", async () => {
    const user = await createTestUser();
    const orphan = await storeBlob("crashed before commit", { ageMs: 2 * HOUR });
    const inFlight = await storeBlob("being committed");
    const picture = await storeBlob("a picture", { ageMs: 2 * HOUR });
    const db = await getDb();
    await db.update(users).set({ pictureBlobId: picture.id }).where(eq(users.id, user.id));

    await collectBlobs(db);
    expect(await blobExists(orphan.id)).toBe(false);
    expect(await blobExists(inFlight.id)).toBe(true);
    expect(await blobExists(picture.id)).toBe(true);
  });

  it("collects the blob a content replacement left behind, once it is old", async () => {
    const user = await createTestUser();
    const { version } = await uploadText(user, user.privateRootId!, "r.txt", "before");
    const res = await call(replace, { method: "PUT", token: user.token, params: { fileId: String(version.id) }, rawBody: "after", headers: { "content-type": "application/octet-stream" } });
    expect(res.status, res.text).toBe(200);
    await backdateBlobRow(version.blobId!, 2 * HOUR);
    await collectBlobs(await getDb());
    expect(await blobExists(version.blobId!)).toBe(false);
  });
});

describe("job uploads.collect", () => {
  afterEach(() => {
    delete process.env.UPLOAD_EXPIRY_HOURS;
  });

  it("drops chunked and tus sessions untouched for the expiry period, with their work files", async () => {
    expect(await handlerFor("uploads.collect")).toBeTypeOf("function");
    const user = await createTestUser();
    const db = await getDb();
    const sendChunk = (name: string) => {
      const { body, contentType } = multipartBody([
        { name: "folderId", value: String(user.privateRootId) },
        { name: "chunk", value: "0" },
        { name: "chunks", value: "2" },
        { name: "chunksSize", value: "8" },
        { name: "fileSize", value: "16" },
        { name: "targetFile", filename: name, data: Buffer.from("part one") },
      ]);
      return call(upload, { method: "POST", token: user.token, rawBody: body, headers: { "content-type": contentType } });
    };
    expect((await sendChunk("stale.bin")).text).toBe("OK");
    expect((await sendChunk("live.bin")).text).toBe("OK");
    const stale = chunkedUploadId(user, { folderId: user.privateRootId!, targetPath: "", name: "stale.bin", fileSize: 16, chunks: 2 });
    const live = chunkedUploadId(user, { folderId: user.privateRootId!, targetPath: "", name: "live.bin", fileSize: 16, chunks: 2 });

    const opened = await call(fileTus, { method: "POST", token: user.token, body: { name: "t.bin", target: user.privateRootId, size: 10 } });
    const key = opened.body[0].sessionKey as string;
    const created = await tusCreate(
      new Request("http://coffre.test/api/tus", {
        method: "POST",
        headers: { "tus-resumable": "1.0.0", authorization: `Bearer ${user.token}`, "upload-length": "10", "upload-metadata": `token ${Buffer.from(key).toString("base64")}` },
      }),
    );
    expect(created.status).toBe(201);
    const tusId = tusUploadId(key);
    await db.update(uploads).set({ updatedAt: ago(25 * HOUR) }).where(inArray(uploads.id, [stale, tusId]));

    const result = await collectUploads(db);
    expect(result.sessions).toBeGreaterThanOrEqual(2);
    expect((await db.select().from(uploads).where(inArray(uploads.id, [stale, live, tusId]))).map((r) => r.id)).toEqual([live]);
    expect(await exists(chunkDir(stale))).toBe(false);
    expect(await exists(tusFile(tusId))).toBe(false);
    expect(await exists(`${tusFile(tusId)}.json`)).toBe(false);
    expect(await exists(path.join(chunkDir(live), "0"))).toBe(true);
  });

  it("follows UPLOAD_EXPIRY_HOURS", async () => {
    process.env.UPLOAD_EXPIRY_HOURS = "2";
    expect(uploadExpiryMs()).toBe(2 * HOUR);
    const user = await createTestUser();
    const db = await getDb();
    const id = `c${randomUUID().replace(/-/g, "")}`;
    await db.insert(uploads).values({ id, kind: "chunked", userId: user.id, folderId: user.privateRootId!, name: "x", chunks: 2, updatedAt: ago(3 * HOUR) });
    await collectUploads(db);
    expect(await db.select().from(uploads).where(eq(uploads.id, id))).toHaveLength(0);
  });

  it("removes old orphan work files and partial blobs, and nothing recent", async () => {
    const store = getBlobStore();
    const orphanDir = chunkDir(`c${randomUUID().replace(/-/g, "")}`);
    const youngDir = chunkDir(`c${randomUUID().replace(/-/g, "")}`);
    const oldPart = path.join(store.tempDir, `${randomUUID()}.part`);
    const youngPart = path.join(store.tempDir, `${randomUUID()}.part`);
    for (const dir of [orphanDir, youngDir]) {
      await fs.mkdir(dir, { recursive: true });
      await fs.writeFile(path.join(dir, "0"), "x");
    }
    await fs.writeFile(oldPart, "x");
    await fs.writeFile(youngPart, "x");
    for (const p of [orphanDir, oldPart]) await fs.utimes(p, ago(25 * HOUR), ago(25 * HOUR));

    await collectUploads(await getDb());
    expect(await exists(orphanDir)).toBe(false);
    expect(await exists(oldPart)).toBe(false);
    expect(await exists(youngDir)).toBe(true);
    expect(await exists(youngPart)).toBe(true);
  });
});

describe("periodic jobs", () => {
  it("enqueues each collection once per period", async () => {
    const db = await getDb();
    const kinds = ["blobs.collect", "uploads.collect", "trash.purge"];
    const before = new Date(Date.now() - 1000);
    await enqueuePeriodicJobs(db);
    const due = await db
      .select({ kind: jobs.kind })
      .from(jobs)
      .where(and(inArray(jobs.kind, kinds), sql`(${jobs.status} IN ('pending', 'running') OR ${jobs.createdAt} > now() - interval '1 hour')`));
    expect(new Set(due.map((j) => j.kind))).toEqual(new Set(kinds));
    expect(await enqueuePeriodicJobs(db)).toEqual([]);
    // Leave no pending job of ours for other test files' workers to pick up.
    await db.delete(jobs).where(and(inArray(jobs.kind, kinds), eq(jobs.status, "pending"), sql`${jobs.createdAt} >= ${before.toISOString()}::timestamptz`));
  });
});

describe("a mail's attachments", () => {
  it("are kept while the mail waits in the outbox, and collected once it has left", async () => {
    const db = await getDb();
    const { id: blobId } = await storeBlob("an attached audit trail", { row: true, ageMs: 2 * HOUR });
    const [mail] = await db
      .insert(emails)
      .values({ type: "EM_TE_TOSEND", object: "Your copy", content: "", to: "nobody@example.test", attachments: [{ filename: "trail.pdf", blob_id: blobId, content_type: "application/pdf" }] })
      .returning();
    await collectBlobs(db);
    expect(await blobExists(blobId)).toBe(true);
    await db.update(emails).set({ type: "EM_TE_SENDED" }).where(eq(emails.id, mail.id));
    await collectBlobs(db);
    expect(await blobExists(blobId)).toBe(false);
  });
});
