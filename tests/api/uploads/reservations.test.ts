import fs from "node:fs/promises";
import { and, eq, isNull } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { files, uploads, users } from "@/db/schema";
import { tusSessionResponse } from "@/lib/contracts/uploads";
import { collectUploads, collectUploadsEveryMs, depositExpiryMs } from "@/lib/server/uploads/collect-uploads";
import { MAX_OPEN_DEPOSITS_PER_LINK, MAX_OPEN_UPLOADS_PER_USER } from "@/lib/server/uploads/reserve-upload";
import { chunkDir, tusUploadId } from "@/lib/server/uploads/upload-sessions";
import { POST as fileTus } from "@/app/api/file/tus/route";
import { POST as upload } from "@/app/api/file/upload/route";
import * as quotasRoute from "@/app/api/quotas/route";
import * as tusRoute from "@/app/api/tus/[[...path]]/route";
import * as depositRoute from "@/app/api/ulink/key/[key]/upload/route";
import { createTestUser, type TestUser } from "../../helpers/factories";
import { call, expectError } from "../../helpers/http";
import { multipartBody, openDatabase, type Part, randomFile } from "../../helpers/upload-factories";
import { createLink } from "../ulinks/ulink-helpers";

// Issue 11, finding 6: chunked and tus uploads reserve their whole declared size against every
// quota when they open; pending reservations count in every quota check, so two uploads under
// way cannot both fit; open uploads are capped per user and per drop link; abandoned deposits go
// within the hour; a failed or cancelled upload leaves no file and no reservation.

const MINUTE = 60_000;

type ChunkSpec = { folderId?: number; name: string; chunk: number; chunks: number; chunksSize: number; fileSize: number; data: Buffer };

function chunkParts(c: ChunkSpec): Part[] {
  return [
    ...(c.folderId === undefined ? [] : [{ name: "folderId", value: String(c.folderId) }]),
    { name: "chunk", value: String(c.chunk) },
    { name: "chunks", value: String(c.chunks) },
    { name: "chunksSize", value: String(c.chunksSize) },
    { name: "fileSize", value: String(c.fileSize) },
    { name: "targetFile", filename: c.name, data: c.data },
  ];
}

function sendChunk(user: TestUser, c: ChunkSpec) {
  const { body, contentType } = multipartBody(chunkParts(c));
  return call(upload, { method: "POST", token: user.token, rawBody: body, headers: { "content-type": contentType } });
}

function depositChunk(key: string, c: ChunkSpec, ip = "198.51.100.9") {
  const { body, contentType } = multipartBody(chunkParts(c));
  return call(depositRoute.POST, { method: "POST", params: { key }, rawBody: body, headers: { "content-type": contentType, "x-forwarded-for": ip } });
}

const openTus = (user: TestUser, body: { name: string; target: number; size: number }) => call(fileTus, { method: "POST", token: user.token, body });

async function quotaFigures(user: TestUser) {
  const res = await call(quotasRoute.GET, { path: "/api/quotas", token: user.token });
  expect(res.status, res.text).toBe(200);
  return res.body.user as { quota: number | null; used: number; pending: number };
}

async function withQuota(quota: number) {
  const user = await createTestUser();
  const db = await getDb();
  await db.update(users).set({ quota }).where(eq(users.id, user.id));
  return user;
}

async function openRows(userId: number) {
  const db = await getDb();
  return db.select().from(uploads).where(eq(uploads.userId, userId));
}

beforeAll(openDatabase, 180_000);

describe("reservations against the quotas", () => {
  it("the reviewer's case: chunks of a declared 1,000-chunk upload never pass a 1,000-byte quota", async () => {
    const user = await withQuota(1000);
    const chunk = randomFile(200 * 1024).data;
    for (let i = 0; i < 3; i++) {
      const res = await sendChunk(user, { folderId: user.privateRootId!, name: "fill.bin", chunk: i, chunks: 1000, chunksSize: chunk.length, fileSize: 1000 * chunk.length, data: chunk });
      expectError(res, 507, "insufficient_storage");
    }
    expect(await openRows(user.id)).toEqual([]);
  });

  it("two chunked uploads under way cannot both be promised the same room; the figures show the pending bytes", async () => {
    const user = await withQuota(1000);
    const root = user.privateRootId!;
    const first = randomFile(600).data;
    const a = await sendChunk(user, { folderId: root, name: "a.bin", chunk: 0, chunks: 2, chunksSize: 300, fileSize: 600, data: first.subarray(0, 300) });
    expect(a.status, a.text).toBe(200);
    expect(await quotaFigures(user)).toMatchObject({ used: 0, pending: 600 });

    // 600 more would fit the quota if nothing counted the first upload's remaining 300 bytes.
    expectError(await sendChunk(user, { folderId: root, name: "b.bin", chunk: 0, chunks: 2, chunksSize: 300, fileSize: 600, data: first.subarray(0, 300) }), 507, "insufficient_storage");
    expectError(await openTus(user, { name: "c.bin", target: root, size: 600 }), 507, "insufficient_storage");

    // The first upload completes: its reservation becomes the file, exactly.
    const done = await sendChunk(user, { folderId: root, name: "a.bin", chunk: 1, chunks: 2, chunksSize: 300, fileSize: 600, data: first.subarray(300) });
    expect(done.status, done.text).toBe(201);
    expect(await quotaFigures(user)).toMatchObject({ used: 600, pending: 0 });
    expect(await openRows(user.id)).toEqual([]);
    expect((await openTus(user, { name: "c.bin", target: root, size: 400 })).status).toBe(201);
    expectError(await openTus(user, { name: "d.bin", target: root, size: 1 }), 507, "insufficient_storage");
  });

  it("concurrent openings of uploads that fit one at a time: exactly as many as fit are accepted", async () => {
    const user = await withQuota(1000);
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => openTus(user, { name: `p${i}.bin`, target: user.privateRootId!, size: 300 })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(3);
    for (const a of answers.filter((x) => x.status !== 201)) expectError(a, 507, "insufficient_storage");
    expect((await quotaFigures(user)).pending).toBe(900);
  });

  it("a first chunk refused while it streams (too large) leaves no session and no reservation", async () => {
    const user = await withQuota(10_000);
    const res = await sendChunk(user, { folderId: user.privateRootId!, name: "big.bin", chunk: 0, chunks: 3, chunksSize: 1000, fileSize: 3000, data: randomFile(5000).data });
    expectError(res, 413, "payload_too_large");
    expect(await openRows(user.id)).toEqual([]);
    expect((await quotaFigures(user)).pending).toBe(0);
  });

  it("a tus upload reserves its size when it opens and gives it back when terminated", async () => {
    const user = await withQuota(1000);
    const opened = await openTus(user, { name: "t.bin", target: user.privateRootId!, size: 800 });
    expect(opened.status, opened.text).toBe(201);
    const key = tusSessionResponse.parse(opened.body)[0].sessionKey;
    expect((await quotaFigures(user)).pending).toBe(800);
    expectError(await openTus(user, { name: "u.bin", target: user.privateRootId!, size: 300 }), 507, "insufficient_storage");

    const headers = { "tus-resumable": "1.0.0", authorization: `Bearer ${user.token}` };
    const created = await tusRoute.POST(
      new Request("http://coffre.test/api/tus", { method: "POST", headers: { ...headers, "upload-length": "800", "upload-metadata": `token ${Buffer.from(key).toString("base64")}` } }),
    );
    expect(created.status).toBe(201);
    const terminated = await tusRoute.DELETE(new Request(`http://coffre.test/api/tus/${tusUploadId(key)}`, { method: "DELETE", headers }));
    expect(terminated.status).toBe(204);
    await expect.poll(async () => (await quotaFigures(user)).pending).toBe(0);
    expect((await openTus(user, { name: "u.bin", target: user.privateRootId!, size: 300 })).status).toBe(201);
  });
});

describe("caps on open uploads", () => {
  it(`a user may have ${MAX_OPEN_UPLOADS_PER_USER} uploads under way, then 429`, async () => {
    const user = await createTestUser();
    for (let i = 0; i < MAX_OPEN_UPLOADS_PER_USER; i++) {
      const res = i % 2 ? await openTus(user, { name: `t${i}.bin`, target: user.privateRootId!, size: 10 }) : await sendChunk(user, { folderId: user.privateRootId!, name: `c${i}.bin`, chunk: 0, chunks: 2, chunksSize: 5, fileSize: 10, data: Buffer.alloc(5) });
      expect(res.status, res.text).toBeLessThan(300);
    }
    const over = await openTus(user, { name: "one-more.bin", target: user.privateRootId!, size: 10 });
    expectError(over, 429, "too_many_requests");
    expectError(await sendChunk(user, { folderId: user.privateRootId!, name: "one-more.bin", chunk: 0, chunks: 2, chunksSize: 5, fileSize: 10, data: Buffer.alloc(5) }), 429, "too_many_requests");
    // The next chunk of an upload already open is not a new upload.
    const next = await sendChunk(user, { folderId: user.privateRootId!, name: "c0.bin", chunk: 1, chunks: 2, chunksSize: 5, fileSize: 10, data: Buffer.alloc(5) });
    expect(next.status, next.text).toBe(201);
  });

  it(`a drop link takes ${MAX_OPEN_DEPOSITS_PER_LINK} deposits under way, then 429; they do not count against its owner`, async () => {
    const owner = await createTestUser();
    const link = await createLink(owner, { folder_id: owner.privateRootId! });
    for (let i = 0; i < MAX_OPEN_DEPOSITS_PER_LINK; i++) {
      const res = await depositChunk(link.key, { name: `d${i}.bin`, chunk: 0, chunks: 2, chunksSize: 5, fileSize: 10, data: Buffer.alloc(5) }, `198.51.100.${i + 1}`);
      expect(res.status, res.text).toBe(200);
    }
    expectError(await depositChunk(link.key, { name: "late.bin", chunk: 0, chunks: 2, chunksSize: 5, fileSize: 10, data: Buffer.alloc(5) }, "198.51.100.77"), 429, "too_many_requests");
    expect((await openTus(owner, { name: "mine.bin", target: owner.privateRootId!, size: 10 })).status).toBe(201);
  });

  it("an anonymous deposit reserves against its owner's quota: 507 past it", async () => {
    const owner = await withQuota(1000);
    const link = await createLink(owner, { folder_id: owner.privateRootId! });
    const res = await depositChunk(link.key, { name: "big.bin", chunk: 0, chunks: 1000, chunksSize: 200 * 1024, fileSize: 1000 * 200 * 1024, data: Buffer.alloc(200 * 1024) });
    expectError(res, 507, "insufficient_storage");
    const fits = await depositChunk(link.key, { name: "small.bin", chunk: 0, chunks: 2, chunksSize: 400, fileSize: 800, data: Buffer.alloc(400) });
    expect(fits.status, fits.text).toBe(200);
    expect((await quotaFigures(owner)).pending).toBe(800);
    expectError(await depositChunk(link.key, { name: "other.bin", chunk: 0, chunks: 2, chunksSize: 200, fileSize: 400, data: Buffer.alloc(200) }, "198.51.100.10"), 507, "insufficient_storage");
  });
});

describe("expiry of abandoned uploads", () => {
  it("a deposit untouched for half an hour goes (row, chunks, reservation); a user's upload stays", async () => {
    expect(collectUploadsEveryMs()).toBeLessThanOrEqual(15 * MINUTE);
    expect(depositExpiryMs() + collectUploadsEveryMs()).toBeLessThanOrEqual(60 * MINUTE);
    const owner = await withQuota(10_000);
    const link = await createLink(owner, { folder_id: owner.privateRootId! });
    expect((await depositChunk(link.key, { name: "left.bin", chunk: 0, chunks: 2, chunksSize: 500, fileSize: 1000, data: Buffer.alloc(500) })).status).toBe(200);
    expect((await sendChunk(owner, { folderId: owner.privateRootId!, name: "mine.bin", chunk: 0, chunks: 2, chunksSize: 500, fileSize: 1000, data: Buffer.alloc(500) })).status).toBe(200);
    const db = await getDb();
    await db.update(uploads).set({ updatedAt: new Date(Date.now() - 31 * MINUTE) }).where(eq(uploads.userId, owner.id));
    const [deposit] = await db.select().from(uploads).where(and(eq(uploads.userId, owner.id), eq(uploads.ulinkId, link.id)));
    expect(deposit).toBeDefined();

    await collectUploads(db);
    const left = await openRows(owner.id);
    expect(left.map((r) => r.name)).toEqual(["mine.bin"]);
    await expect(fs.stat(chunkDir(deposit.id))).rejects.toThrow();
    expect((await quotaFigures(owner)).pending).toBe(1000);
    const visible = await db.select().from(files).where(and(eq(files.folderId, owner.privateRootId!), isNull(files.deletedAt)));
    expect(visible.map((f) => f.name)).not.toContain("left.bin");
  });
});
