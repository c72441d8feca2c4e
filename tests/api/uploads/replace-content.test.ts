import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { fileLocks, fileVersions, users } from "@/db/schema";
import { fileResponse } from "@/lib/contracts/files";
import { PUT } from "@/app/api/file/[fileId]/upload/route";
import { createTestUser, type TestUser } from "../../helpers/factories";
import { allRightsBut, createFolder, grantRight, uploadText } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";
import { interruptedBody, listBlobIds, openDatabase, randomFile, storedMd5 } from "../../helpers/upload-factories";

const replace = (user: TestUser | null, versionId: number, data: Uint8Array | ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
  call(PUT, {
    method: "PUT",
    token: user?.token ?? null,
    params: { fileId: String(versionId) },
    rawBody: data as BodyInit,
    headers: { "content-type": "application/octet-stream", ...headers },
  });

async function versionRow(id: number) {
  const db = await getDb();
  return (await db.select().from(fileVersions).where(eq(fileVersions.id, id)))[0];
}

beforeAll(openDatabase, 180_000);

describe("PUT /file/(fileId)/upload", () => {
  it("replaces the current version's content without a new version, byte-identical", async () => {
    const user = await createTestUser();
    const { version, file } = await uploadText(user, user.privateRootId!, "report.txt", "old content");
    const source = randomFile(2 * 1024 * 1024 + 5);
    const res = await replace(user, version.id, source.data, { "content-length": String(source.data.length) });
    expect(res.status, res.text).toBe(200);
    const json = fileResponse.parse(res.body);
    expect(json).toMatchObject({ id: version.id, guid: file.guid, size: source.data.length, hash: source.md5 });
    expect(json.nb_versions).toBeUndefined();
    expect(await storedMd5(version.id)).toEqual({ md5: source.md5, size: source.data.length });
    const row = await versionRow(version.id);
    expect(row).toMatchObject({ number: 1, size: source.data.length, md5: source.md5 });
    expect(row.blobId).not.toBe(version.blobId);
    // PATCH is the synonym api.md promises; no Content-Length is fine too.
    const again = await call(PUT, { method: "PATCH", token: user.token, params: { fileId: String(version.id) }, rawBody: "short", headers: { "content-type": "application/octet-stream" } });
    expect(again.status, again.text).toBe(200);
    expect(again.body.size).toBe(5);
  });

  it("replaces the newest version when given an older version id", async () => {
    const user = await createTestUser();
    const first = await uploadText(user, user.privateRootId!, "v.txt", "one");
    const second = await uploadText(user, user.privateRootId!, "v.txt", "two");
    const res = await replace(user, first.version.id, Buffer.from("three"));
    expect(res.status, res.text).toBe(200);
    expect(res.body.id).toBe(second.version.id);
    expect((await versionRow(first.version.id)).size).toBe(3);
    expect((await versionRow(second.version.id)).size).toBe(5);
  });

  it("needs application/octet-stream (415) and a body matching Content-Length (400, nothing changed)", async () => {
    const user = await createTestUser();
    const { version } = await uploadText(user, user.privateRootId!, "keep.txt", "keep me");
    const blobsBefore = await listBlobIds();
    expectError(await replace(user, version.id, Buffer.from("x"), { "content-type": "text/plain" }), 415, "unsupported_media_type");
    expectError(await replace(user, version.id, Buffer.from("abc"), { "content-length": "4" }), 400, "invalid_request");
    expectError(await replace(user, version.id, Buffer.from("abcdef"), { "content-length": "4" }), 400, "invalid_request");
    const cut = await replace(user, version.id, interruptedBody(Buffer.alloc(100_000, 1), 50_000));
    expect(cut.status).toBeGreaterThanOrEqual(400);
    expect(await versionRow(version.id)).toMatchObject({ md5: version.md5, size: 7, blobId: version.blobId });
    expect(await listBlobIds()).toEqual(blobsBefore);
  });

  it("checks the quota for the growth: Content-Length first (507 before storing), then the bytes", async () => {
    const user = await createTestUser();
    const { version } = await uploadText(user, user.privateRootId!, "q.txt", "0123456789");
    const db = await getDb();
    await db.update(users).set({ quota: 1000 }).where(eq(users.id, user.id));
    const blobsBefore = await listBlobIds();
    expectError(await replace(user, version.id, Buffer.alloc(1001), { "content-length": "1001" }), 507, "insufficient_storage");
    expectError(await replace(user, version.id, Buffer.alloc(1001)), 507, "insufficient_storage");
    expect(await listBlobIds()).toEqual(blobsBefore);
    expect((await replace(user, version.id, Buffer.alloc(1000))).status).toBe(200);
  });

  it("needs the edit right (403), is a 404 for unknown files and strangers, 423 when locked by another", async () => {
    const owner = await createTestUser();
    const other = await createTestUser();
    const folder = await createFolder(owner, owner.privateRootId!, "team");
    const { version, file } = await uploadText(owner, folder.id, "doc.txt", "v1");
    await grantRight(folder.id, other.id, allRightsBut("edit"));
    expectError(await replace(other, version.id, Buffer.from("x")), 403, "forbidden");
    await grantRight(folder.id, other.id, allRightsBut());
    const db = await getDb();
    await db.insert(fileLocks).values({ fileId: file.id, ownerId: owner.id });
    expectError(await replace(other, version.id, Buffer.from("x")), 423, "locked");
    expect((await replace(owner, version.id, Buffer.from("by the holder"))).status).toBe(200);
    const stranger = await createTestUser();
    expectError(await replace(stranger, version.id, Buffer.from("x")), 403);
    expectError(await replace(owner, 2_000_000_000, Buffer.from("x")), 404, "not_found");
    await expectAuthRequired(PUT, { method: "PUT", params: { fileId: String(version.id) }, rawBody: "x", headers: { "content-type": "application/octet-stream" } });
  });
});
