import { and, eq, isNull } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { fileLocks, folders, users } from "@/db/schema";
import { fileResponse } from "@/lib/contracts/files";
import { usedByUser } from "@/lib/server/quotas/assert-quota";
import { POST } from "@/app/api/file/upload/route";
import { createTestUser } from "../../helpers/factories";
import { allRightsBut, createFolder, grantRight, uploadText } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";
import { countingBody, filesNamed, interruptedBody, listBlobIds, listTempFiles, multipartBody, openDatabase, type Part, randomFile, storedMd5 } from "../../helpers/upload-factories";

const upload = (token: string | null, parts: Part[], query: Record<string, string> = {}) => {
  const { body, contentType } = multipartBody(parts);
  return call(POST, { method: "POST", path: "/api/file/upload", token, rawBody: body, query, headers: { "content-type": contentType, "content-length": String(body.length) } });
};
const file = (filename: string, data: Uint8Array | string, type?: string): Part => ({ name: "targetFile", filename, data: typeof data === "string" ? Buffer.from(data) : data, type });
const field = (name: string, value: string | number): Part => ({ name, value: String(value) });

beforeAll(openDatabase, 180_000);

describe("POST /file/upload (whole file)", () => {
  it("streams a multi-megabyte file into a new file whose content is byte-identical (201 File)", async () => {
    const user = await createTestUser();
    // Over WORKER_MD5_MIN_BYTES: hashed on the worker thread.
    const source = randomFile(9 * 1024 * 1024 + 123);
    const res = await upload(user.token, [field("folderId", user.privateRootId!), file("big.bin", source.data)]);
    expect(res.status, res.text).toBe(201);
    const json = fileResponse.parse(res.body);
    expect(json).toMatchObject({ name: "big.bin", parent_id: user.privateRootId, size: source.data.length, hash: source.md5, can_edit: true });
    expect(await storedMd5(json.id)).toEqual({ md5: source.md5, size: source.data.length });
    expect(await usedByUser(await getDb(), user.id)).toBe(source.data.length);
  });

  it("accepts the text parts after the file, and a second upload of a name is a new version", async () => {
    const user = await createTestUser();
    const first = await upload(user.token, [file("notes.txt", "one", "text/plain"), field("folderId", user.privateRootId!)]);
    expect(first.status, first.text).toBe(201);
    const second = await upload(user.token, [file("NOTES.txt", "two, longer"), field("folderId", user.privateRootId!)], { full: "1" });
    expect(second.status, second.text).toBe(201);
    expect(second.body).toMatchObject({ name: "notes.txt", nb_versions: 2, size: 11, mime: "text/plain" });
    const [found] = await filesNamed(user.privateRootId!, "notes.txt");
    expect(found.versions.map((v) => v.number).sort()).toEqual([1, 2]);
    expect(found.file.currentVersionId).toBe(second.body.id);
  });

  it("keeps a non-ASCII file name as browsers send it (raw UTF-8)", async () => {
    const user = await createTestUser();
    const res = await upload(user.token, [field("folderId", user.privateRootId!), file("Résumé 日本語 ü.txt", "x")]);
    expect(res.status, res.text).toBe(201);
    expect(res.body.name).toBe("Résumé 日本語 ü.txt");
  });

  it("uploads into the caller's private space when folderId is missing", async () => {
    const user = await createTestUser();
    const res = await upload(user.token, [file("here.txt", "x")]);
    expect(res.status, res.text).toBe(201);
    expect(res.body.parent_id).toBe(user.privateRootId);
  });

  it("creates the missing folders of targetPath below folderId", async () => {
    const user = await createTestUser();
    const existing = await createFolder(user, user.privateRootId!, "a");
    const res = await upload(user.token, [field("folderId", user.privateRootId!), field("targetPath", "a/b/c"), file("deep.txt", "deep")]);
    expect(res.status, res.text).toBe(201);
    const db = await getDb();
    const [b] = await db.select().from(folders).where(and(eq(folders.parentId, existing.id), eq(folders.name, "b"), isNull(folders.deletedAt)));
    const [c] = await db.select().from(folders).where(and(eq(folders.parentId, b.id), eq(folders.name, "c")));
    expect(c.path).toEqual([user.privateRootId, existing.id, b.id]);
    expect(c.ownerId).toBe(user.id);
    expect(res.body.parent_id).toBe(c.id);
    // Same path again: the folders are reused, the file gets a new version.
    const again = await upload(user.token, [field("folderId", user.privateRootId!), field("targetPath", "/a/b/c/"), file("deep.txt", "deeper")]);
    expect(again.status, again.text).toBe(201);
    expect(again.body.parent_id).toBe(c.id);
  });

  it("checks fileSize and fileHash when they are given (400, nothing stored)", async () => {
    const user = await createTestUser();
    const before = await listBlobIds();
    expectError(await upload(user.token, [field("folderId", user.privateRootId!), field("fileHash", "0".repeat(32)), file("h.txt", "abc")]), 400, "invalid_request");
    expectError(await upload(user.token, [field("folderId", user.privateRootId!), field("fileSize", 99), file("h.txt", "abc")]), 400, "invalid_request");
    expect(await listBlobIds()).toEqual(before);
    expect(await filesNamed(user.privateRootId!, "h.txt")).toHaveLength(0);
  });

  it("refuses bad input: no file part, bad name, not multipart", async () => {
    const user = await createTestUser();
    expectError(await upload(user.token, [field("folderId", user.privateRootId!)]), 400, "invalid_request");
    expectError(await upload(user.token, [field("folderId", user.privateRootId!), file("..", "x")]), 400, "invalid_name");
    expectError(await upload(user.token, [field("folderId", "abc"), file("x.txt", "x")]), 400, "invalid_request");
    const json = await call(POST, { method: "POST", token: user.token, body: { folderId: user.privateRootId } });
    expectError(json, 415);
  });

  it("leaves no file, no blob, no temporary data and no quota used when the client goes away mid-upload", async () => {
    const user = await createTestUser();
    // Declared over WORKER_MD5_MIN_BYTES: the worker-thread hash is abandoned too.
    const source = randomFile(10 * 1024 * 1024);
    for (const order of ["fields-first", "fields-last"] as const) {
      const parts = order === "fields-first" ? [field("folderId", user.privateRootId!), file("cut.bin", source.data)] : [file("cut.bin", source.data), field("folderId", user.privateRootId!)];
      const { body, contentType } = multipartBody(parts);
      const blobsBefore = await listBlobIds();
      const res = await call(POST, {
        method: "POST",
        token: user.token,
        rawBody: interruptedBody(body, 6 * 1024 * 1024),
        headers: { "content-type": contentType, "content-length": String(body.length) },
      });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(await filesNamed(user.privateRootId!, "cut.bin")).toHaveLength(0);
      expect(await listBlobIds()).toEqual(blobsBefore);
      expect((await listTempFiles()).filter((f) => f.endsWith(".part"))).toEqual([]);
      expect(await usedByUser(await getDb(), user.id)).toBe(0);
    }
  });

  it("refuses a declared size over the quota with 507 before storing anything", async () => {
    const user = await createTestUser();
    const db = await getDb();
    await db.update(users).set({ quota: 1024 * 1024 }).where(eq(users.id, user.id));
    const source = randomFile(16 * 1024 * 1024);
    const blobsBefore = await listBlobIds();
    const { body, contentType } = multipartBody([field("folderId", user.privateRootId!), file("huge.bin", source.data)]);
    const counted = countingBody(body);
    const res = await call(POST, { method: "POST", token: user.token, rawBody: counted.stream, headers: { "content-type": contentType, "content-length": String(body.length) } });
    expectError(res, 507, "insufficient_storage");
    // Refused from the declared length: the body stopped being read long before its end.
    expect(counted.pulled()).toBeLessThan(8 * 1024 * 1024);
    expect(await listBlobIds()).toEqual(blobsBefore);
    // Fields after the file: the content is stored invisibly, then refused at commit and deleted.
    expectError(await upload(user.token, [file("huge.bin", source.data), field("folderId", user.privateRootId!)]), 507, "insufficient_storage");
    expect(await listBlobIds()).toEqual(blobsBefore);
    expect(await filesNamed(user.privateRootId!, "huge.bin")).toHaveLength(0);
  });

  it("needs write for a new file and edit for a new version; another user's folder is a 404", async () => {
    const owner = await createTestUser();
    const other = await createTestUser();
    const shared = await createFolder(owner, owner.privateRootId!, "shared");
    await uploadText(owner, shared.id, "existing.txt", "v1");

    await grantRight(shared.id, other.id, allRightsBut("write"));
    expectError(await upload(other.token, [field("folderId", shared.id), file("new.txt", "x")]), 403, "forbidden");
    expectError(await upload(other.token, [field("folderId", shared.id), field("targetPath", "sub"), file("new.txt", "x")]), 403, "forbidden");
    const version = await upload(other.token, [field("folderId", shared.id), file("existing.txt", "v2")]);
    expect(version.status, version.text).toBe(201);

    await grantRight(shared.id, other.id, allRightsBut("edit"));
    expectError(await upload(other.token, [field("folderId", shared.id), file("existing.txt", "v3")]), 403, "forbidden");
    // Fields after the file: same answer once the target is known.
    expectError(await upload(other.token, [file("existing.txt", "v3"), field("folderId", shared.id)]), 403, "forbidden");
    const created = await upload(other.token, [field("folderId", shared.id), file("new.txt", "x")]);
    expect(created.status, created.text).toBe(201);

    const stranger = await createTestUser();
    expectError(await upload(stranger.token, [field("folderId", shared.id), file("x.txt", "x")]), 404, "not_found");
    expectError(await upload(stranger.token, [field("folderId", owner.privateRootId!), file("x.txt", "x")]), 404, "not_found");
  });

  it("answers 423 when the file is locked by another user", async () => {
    const owner = await createTestUser();
    const other = await createTestUser();
    const { file: locked } = await uploadText(owner, owner.privateRootId!, "locked.txt", "v1");
    await grantRight(owner.privateRootId!, other.id, allRightsBut());
    const db = await getDb();
    await db.insert(fileLocks).values({ fileId: locked.id, ownerId: owner.id });
    expectError(await upload(other.token, [field("folderId", owner.privateRootId!), file("locked.txt", "v2")]), 423, "locked");
    expectError(await upload(other.token, [file("locked.txt", "v2"), field("folderId", owner.privateRootId!)]), 423, "locked");
    const byHolder = await upload(owner.token, [field("folderId", owner.privateRootId!), file("locked.txt", "v2")]);
    expect(byHolder.status, byHolder.text).toBe(201);
  });

  it("stores a small body before checking its target, and leaves nothing when the commit refuses it (403, 423, 404, 507) or the client goes away", async () => {
    const owner = await createTestUser();
    const other = await createTestUser();
    const stranger = await createTestUser();
    const shared = await createFolder(owner, owner.privateRootId!, "small-refusals");
    const { file: locked } = await uploadText(owner, shared.id, "locked.txt", "v1");
    await grantRight(shared.id, other.id, allRightsBut("write"));
    const db = await getDb();
    await db.insert(fileLocks).values({ fileId: locked.id, ownerId: owner.id });
    await db.update(users).set({ quota: 1024 }).where(eq(users.id, owner.id));
    const blobsBefore = await listBlobIds();
    const usedBefore = await usedByUser(db, owner.id);

    // Under 1 MiB: no question before the bytes, the same answers from the commit.
    expectError(await upload(other.token, [field("folderId", shared.id), file("new.txt", "x")]), 403, "forbidden");
    expectError(await upload(other.token, [field("folderId", shared.id), file("locked.txt", "v2")]), 423, "locked");
    expectError(await upload(stranger.token, [field("folderId", shared.id), file("x.txt", "x")]), 404, "not_found");
    expectError(await upload(owner.token, [field("folderId", shared.id), file("over.bin", randomFile(64 * 1024).data)]), 507, "insufficient_storage");
    const { body, contentType } = multipartBody([field("folderId", shared.id), file("cut.bin", randomFile(512 * 1024).data)]);
    const cut = await call(POST, { method: "POST", token: owner.token, rawBody: interruptedBody(body, 100 * 1024), headers: { "content-type": contentType, "content-length": String(body.length) } });
    expect(cut.status).toBeGreaterThanOrEqual(400);
    expect(cut.status).toBeLessThan(500);

    for (const name of ["new.txt", "x.txt", "over.bin", "cut.bin"]) expect(await filesNamed(shared.id, name)).toHaveLength(0);
    expect((await filesNamed(shared.id, "locked.txt"))[0].versions).toHaveLength(1);
    expect(await listBlobIds()).toEqual(blobsBefore);
    expect((await listTempFiles()).filter((f) => f.endsWith(".part"))).toEqual([]);
    expect(await usedByUser(db, owner.id)).toBe(usedBefore);
  });

  it("requires authentication", async () => {
    const { body, contentType } = multipartBody([file("x.txt", "x")]);
    await expectAuthRequired(POST, { method: "POST", rawBody: body, headers: { "content-type": contentType } });
  });
});
