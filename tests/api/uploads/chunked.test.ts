import fs from "node:fs/promises";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { uploads, users } from "@/db/schema";
import { fileResponse } from "@/lib/contracts/files";
import { missingChunksResponse } from "@/lib/contracts/uploads";
import { usedByUser } from "@/lib/server/quotas/assert-quota";
import { runningHashOffset } from "@/lib/server/uploads/chunk-hashes";
import { chunkDir, chunkedUploadId } from "@/lib/server/uploads/upload-sessions";
import { POST } from "@/app/api/file/upload/route";
import { createTestUser, type TestUser } from "../../helpers/factories";
import { allRightsBut, createFolder, grantRight } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";
import { filesNamed, multipartBody, openDatabase, type Part, randomFile, storedMd5 } from "../../helpers/upload-factories";

type Chunking = { folderId: number; name: string; data: Buffer; chunksSize: number; fileHash?: string; withSize?: boolean };

const chunkCount = (c: Chunking) => Math.max(1, Math.ceil(c.data.length / c.chunksSize));

function sendChunk(token: string | null, c: Chunking, index: number, options: { report?: boolean; fieldsAfter?: boolean; data?: Buffer } = {}) {
  const slice = options.data ?? c.data.subarray(index * c.chunksSize, (index + 1) * c.chunksSize);
  const fields: Part[] = [
    { name: "folderId", value: String(c.folderId) },
    { name: "chunk", value: String(index) },
    { name: "chunks", value: String(chunkCount(c)) },
    { name: "chunksSize", value: String(c.chunksSize) },
    ...(c.withSize === false ? [] : [{ name: "fileSize", value: String(c.data.length) }]),
    ...(c.fileHash ? [{ name: "fileHash", value: c.fileHash }] : []),
    ...(options.report ? [{ name: "report", value: "1" }] : []),
  ];
  const filePart: Part = { name: "targetFile", filename: c.name, data: slice };
  const { body, contentType } = multipartBody(options.fieldsAfter ? [filePart, ...fields] : [...fields, filePart]);
  return call(POST, { method: "POST", token, rawBody: body, headers: { "content-type": contentType } });
}

const expectOk = (res: { status: number; text: string; headers: Headers }) => {
  expect(res.status, res.text).toBe(200);
  expect(res.text).toBe("OK");
  expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
};

const sessionOf = (user: TestUser, c: Chunking) =>
  chunkedUploadId(user, { folderId: c.folderId, targetPath: "", name: c.name, fileSize: c.withSize === false ? undefined : c.data.length, chunks: chunkCount(c) });

beforeAll(openDatabase, 180_000);

/** The chunks an upload counts: the markers beside its data file, where each chunk sits at its offset. */
const chunksFiled = async (uploadId: string) => (await fs.readdir(chunkDir(uploadId))).filter((name) => /^\d+$/.test(name)).sort();

describe("POST /file/upload (chunked)", () => {
  it("assembles chunks sent out of order into a byte-identical file, answering OK and the missing list", async () => {
    const user = await createTestUser();
    const source = randomFile(3 * 1024 * 1024 + 512 * 1024);
    const c: Chunking = { folderId: user.privateRootId!, name: "movie.bin", data: source.data, chunksSize: 1024 * 1024, fileHash: source.md5 };

    expectOk(await sendChunk(user.token, c, 2));
    expectOk(await sendChunk(user.token, c, 0, { fieldsAfter: true }));
    // The last index arrives with a hole: the missing list comes without asking.
    const last = await sendChunk(user.token, c, 3);
    expect(last.status, last.text).toBe(200);
    expect(missingChunksResponse.parse(last.body)).toEqual([{ missing: 1 }]);
    // Nothing visible, nothing counted yet; the chunks wait in the work area.
    expect(await filesNamed(user.privateRootId!, "movie.bin")).toHaveLength(0);
    expect(await usedByUser(await getDb(), user.id)).toBe(0);
    expect(await chunksFiled(sessionOf(user, c))).toEqual(["0", "2", "3"]);
    // `report` on a re-sent chunk answers the list too.
    expect((await sendChunk(user.token, c, 0, { report: true })).body).toEqual([{ missing: 1 }]);

    const done = await sendChunk(user.token, c, 1);
    expect(done.status, done.text).toBe(201);
    const json = fileResponse.parse(done.body);
    expect(json).toMatchObject({ name: "movie.bin", size: source.data.length, hash: source.md5 });
    expect(await storedMd5(json.id)).toEqual({ md5: source.md5, size: source.data.length });
    // The session and its chunks are gone.
    const db = await getDb();
    expect(await db.select().from(uploads).where(eq(uploads.id, sessionOf(user, c)))).toHaveLength(0);
    await expect(fs.stat(chunkDir(sessionOf(user, c)))).rejects.toThrow();
  });

  it("commits a one-chunk upload at once", async () => {
    const user = await createTestUser();
    const c: Chunking = { folderId: user.privateRootId!, name: "one.txt", data: Buffer.from("single chunk"), chunksSize: 1024 };
    const res = await sendChunk(user.token, c, 0);
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ name: "one.txt", size: 12 });
  });

  // Issue 11, finding 6: without the total, nothing could be reserved against the quotas.
  it("refuses a chunked upload without fileSize (400), before and after the file part, storing nothing", async () => {
    const user = await createTestUser();
    const c: Chunking = { folderId: user.privateRootId!, name: "nosize.bin", data: randomFile(300).data, chunksSize: 100, withSize: false };
    expectError(await sendChunk(user.token, c, 0), 400, "invalid_request");
    expectError(await sendChunk(user.token, c, 1, { fieldsAfter: true }), 400, "invalid_request");
    const db = await getDb();
    expect(await db.select().from(uploads).where(eq(uploads.userId, user.id))).toEqual([]);
  });

  it("keeps the chunks after a hash mismatch (400) so that re-sending the bad chunk completes the file", async () => {
    const user = await createTestUser();
    const source = randomFile(300 * 1024);
    const c: Chunking = { folderId: user.privateRootId!, name: "fix.bin", data: source.data, chunksSize: 100 * 1024, fileHash: source.md5 };
    expectOk(await sendChunk(user.token, c, 0));
    expectOk(await sendChunk(user.token, c, 1, { data: Buffer.alloc(100 * 1024, 7) }));
    expectError(await sendChunk(user.token, c, 2), 400, "invalid_request");
    expect(await filesNamed(user.privateRootId!, "fix.bin")).toHaveLength(0);
    expect(await chunksFiled(sessionOf(user, c))).toEqual(["0", "1", "2"]);

    const fixed = await sendChunk(user.token, c, 1);
    expect(fixed.status, fixed.text).toBe(201);
    expect(await storedMd5(fixed.body.id)).toEqual({ md5: source.md5, size: source.data.length });
  });

  it("hashes chunks sent in order as they are written: the answered and stored MD5 are the content's", async () => {
    const user = await createTestUser();
    // Over WORKER_MD5_MIN_BYTES in all: the running hash is on the worker thread.
    const source = randomFile(10 * 1024 * 1024 + 17);
    const c: Chunking = { folderId: user.privateRootId!, name: "ordered.bin", data: source.data, chunksSize: 4 * 1024 * 1024 };
    expectOk(await sendChunk(user.token, c, 0));
    expectOk(await sendChunk(user.token, c, 1));
    // The running hash follows the chunks: the last one needs no read of the data file.
    expect(runningHashOffset(sessionOf(user, c))).toBe(2 * c.chunksSize);
    const last = await sendChunk(user.token, c, 2);
    expect(last.status, last.text).toBe(201);
    expect(last.body).toMatchObject({ size: source.data.length, hash: source.md5 });
    expect(runningHashOffset(sessionOf(user, c))).toBeNull();
    expect(await storedMd5(last.body.id)).toEqual({ md5: source.md5, size: source.data.length });
  });

  it("a chunk re-sent with other bytes before the set completes: the MD5 is the final content's, not the first bytes'", async () => {
    const user = await createTestUser();
    const source = randomFile(300 * 1024);
    const c: Chunking = { folderId: user.privateRootId!, name: "resent.bin", data: source.data, chunksSize: 100 * 1024 };
    expectOk(await sendChunk(user.token, c, 0, { data: Buffer.alloc(100 * 1024, 9) }));
    expectOk(await sendChunk(user.token, c, 1));
    expect(runningHashOffset(sessionOf(user, c))).toBe(2 * c.chunksSize);
    // Chunk 0 again, now right: the running hash (over the wrong first bytes) must not be used.
    expectOk(await sendChunk(user.token, c, 0));
    expect(runningHashOffset(sessionOf(user, c))).toBeNull();
    const last = await sendChunk(user.token, c, 2);
    expect(last.status, last.text).toBe(201);
    expect(last.body).toMatchObject({ size: source.data.length, hash: source.md5 });
    expect(await storedMd5(last.body.id)).toEqual({ md5: source.md5, size: source.data.length });
  });

  it("commits once when the last two chunks complete the set at the same moment", async () => {
    const user = await createTestUser();
    const source = randomFile(400 * 1024);
    const c: Chunking = { folderId: user.privateRootId!, name: "race.bin", data: source.data, chunksSize: 100 * 1024 };
    expectOk(await sendChunk(user.token, c, 0));
    expectOk(await sendChunk(user.token, c, 1));
    const answers = await Promise.all([sendChunk(user.token, c, 2), sendChunk(user.token, c, 3), sendChunk(user.token, c, 3)]);
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    for (const a of answers) expect([200, 201]).toContain(a.status);
    const found = await filesNamed(user.privateRootId!, "race.bin");
    expect(found).toHaveLength(1);
    expect(found[0].versions).toHaveLength(1);
    expect(found[0].versions[0].md5).toBe(source.md5);
  });

  it("refuses chunks of the wrong size, and inconsistent fields", async () => {
    const user = await createTestUser();
    const c: Chunking = { folderId: user.privateRootId!, name: "sizes.bin", data: randomFile(250).data, chunksSize: 100 };
    expectError(await sendChunk(user.token, c, 0, { data: Buffer.alloc(99) }), 400, "invalid_request");
    // Larger than its declared size: refused while it streams (fields first) or once known (fields after).
    expectError(await sendChunk(user.token, c, 2, { data: Buffer.alloc(51) }), 413, "payload_too_large");
    expectError(await sendChunk(user.token, c, 0, { data: Buffer.alloc(200_000) }), 413, "payload_too_large");
    expectError(await sendChunk(user.token, c, 0, { data: Buffer.alloc(101), fieldsAfter: true }), 413, "payload_too_large");
    // chunks × chunksSize cannot hold fileSize (or holds it with an empty last chunk).
    const wrongLayout = multipartBody([
      { name: "folderId", value: String(c.folderId) },
      { name: "chunk", value: "0" },
      { name: "chunks", value: "3" },
      { name: "chunksSize", value: "50" },
      { name: "fileSize", value: "250" },
      { name: "targetFile", filename: "layout.bin", data: Buffer.alloc(50) },
    ]);
    expectError(await call(POST, { method: "POST", token: user.token, rawBody: wrongLayout.body, headers: { "content-type": wrongLayout.contentType } }), 400, "invalid_request");
    const { body, contentType } = multipartBody([
      { name: "chunk", value: "3" },
      { name: "chunks", value: "3" },
      { name: "targetFile", filename: "x.bin", data: Buffer.alloc(1) },
    ]);
    expectError(await call(POST, { method: "POST", token: user.token, rawBody: body, headers: { "content-type": contentType } }), 400, "invalid_request");
    await expect(fs.stat(chunkDir(sessionOf(user, c)))).rejects.toThrow();
  });

  it("refuses a fileSize over the quota with 507 before storing a chunk", async () => {
    const user = await createTestUser();
    const db = await getDb();
    await db.update(users).set({ quota: 1000 }).where(eq(users.id, user.id));
    const c: Chunking = { folderId: user.privateRootId!, name: "big.bin", data: randomFile(2000).data, chunksSize: 1000 };
    expectError(await sendChunk(user.token, c, 0), 507, "insufficient_storage");
    await expect(fs.stat(chunkDir(sessionOf(user, c)))).rejects.toThrow();
  });

  it("needs the write right (or edit for an existing name); another user's folder is a 404", async () => {
    const owner = await createTestUser();
    const other = await createTestUser();
    const shared = await createFolder(owner, owner.privateRootId!, "drop");
    await grantRight(shared.id, other.id, allRightsBut("write"));
    const c: Chunking = { folderId: shared.id, name: "c.bin", data: randomFile(200).data, chunksSize: 100 };
    expectError(await sendChunk(other.token, c, 0), 403, "forbidden");
    expectError(await sendChunk(other.token, c, 1, { fieldsAfter: true }), 403, "forbidden");
    const stranger = await createTestUser();
    expectError(await sendChunk(stranger.token, c, 0), 404, "not_found");
    await grantRight(shared.id, other.id, allRightsBut());
    expectOk(await sendChunk(other.token, c, 0));
    expect((await sendChunk(other.token, c, 1)).status).toBe(201);
  });

  it("requires authentication", async () => {
    const c: Chunking = { folderId: 1, name: "a.bin", data: Buffer.alloc(10), chunksSize: 5 };
    const { body, contentType } = multipartBody([{ name: "chunk", value: "0" }, { name: "chunks", value: "2" }, { name: "targetFile", filename: c.name, data: c.data }]);
    await expectAuthRequired(POST, { method: "POST", rawBody: body, headers: { "content-type": contentType } });
  });
});
