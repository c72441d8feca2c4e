import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as createRoute from "@/app/api/file/route";
import { getDb } from "@/db";
import { fileVersions, folders, users } from "@/db/schema";
import { fileResponse } from "@/lib/contracts/files";
import { getBlobStore } from "@/lib/storage";
import { createTestUser } from "../../helpers/factories";
import { createFileScene, createOwnFolder, latestLog, liveVersionIds, lockAs, OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { allRightsBut, grantRight, uploadText } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";

const md5 = (text: string) => createHash("md5").update(text).digest("hex");
const EMPTY_MD5 = md5("");
const create = (token: string, body: unknown, query: Record<string, string | number> = {}) =>
  call(createRoute.POST, { method: "POST", path: "/api/file", token, body, query });

async function versionRow(id: number) {
  const db = await getDb();
  const [v] = await db.select().from(fileVersions).where(eq(fileVersions.id, id));
  return v;
}

beforeAll(openDatabase, OPEN_TIMEOUT);

describe("POST /api/file: empty file or version", () => {
  it("creates an empty file (201) with a stored empty blob, and logs it", async () => {
    const user = await createTestUser();
    const folder = await createOwnFolder(user);
    const res = await create(user.token, { name: "notes.md", parent_id: folder.id });
    expect(res.status, res.text).toBe(201);
    const body = fileResponse.parse(res.body);
    expect(body).toMatchObject({ name: "notes.md", parent_id: folder.id, size: 0, hash: EMPTY_MD5, owner_id: String(user.id) });
    const version = await versionRow(body.id);
    expect(version).toMatchObject({ size: 0, md5: EMPTY_MD5, mime: "text/markdown", creatorId: user.id });
    expect(await getBlobStore().size(version.blobId!)).toBe(0);
    expect(await latestLog("file", body.id)).toMatchObject({ type: "ADMLLOG_INSERT", userId: user.id });
  });

  it("puts the file in the caller's private space when parent_id is absent, and accepts a string parent_id", async () => {
    const user = await createTestUser();
    const res = await create(user.token, { name: "root.txt" });
    expect(res.status, res.text).toBe(201);
    expect(res.body.parent_id).toBe(user.privateRootId);
    const folder = await createOwnFolder(user);
    expect((await create(user.token, { name: "s.txt", parent_id: String(folder.id) })).body.parent_id).toBe(folder.id);
  });

  it("adds an empty version when the name exists (201), case-insensitively", async () => {
    const { owner, folder, file } = await createFileScene({ name: "Report.txt" });
    const res = await create(owner.token, { name: "report.TXT", parent_id: folder.id }, { full: 1 });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ guid: file.guid, name: "Report.txt", nb_versions: 2, size: 0 });
  });

  it("clones an earlier version by hash (200, shared blob) and returns the newest as is", async () => {
    const { owner, folder, file, version } = await createFileScene({ text: "alpha" });
    await uploadText(owner, folder.id, file.name, "beta");
    const res = await create(owner.token, { name: file.name, parent_id: folder.id, hash: md5("alpha").toUpperCase() });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ guid: file.guid, hash: md5("alpha"), size: 5 });
    expect(res.body.id).not.toBe(version.id);
    expect((await versionRow(res.body.id)).blobId).toBe(version.blobId);
    expect(await liveVersionIds(file.id)).toHaveLength(3);

    const again = await create(owner.token, { name: file.name, parent_id: folder.id, hash: md5("alpha") });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(res.body.id);
    expect(await liveVersionIds(file.id)).toHaveLength(3);
  });

  it("creates an empty version (201) when no version has the hash", async () => {
    const { owner, folder, file } = await createFileScene({ text: "alpha" });
    const res = await create(owner.token, { name: file.name, parent_id: folder.id, hash: md5("nothing like it") });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ guid: file.guid, hash: EMPTY_MD5 });
  });

  it("needs write for a new file and edit for a new version (403); 404 for a folder the caller cannot browse", async () => {
    const { other, folder, file } = await createFileScene();
    expectError(await create(other.token, { name: "x.txt", parent_id: folder.id }), 404, "not_found");
    await grantRight(folder.id, other.id, allRightsBut("write"));
    expectError(await create(other.token, { name: "x.txt", parent_id: folder.id }), 403, "forbidden");
    await grantRight(folder.id, other.id, allRightsBut("edit"));
    expectError(await create(other.token, { name: file.name, parent_id: folder.id }), 403, "forbidden");
    expect((await create(other.token, { name: "x.txt", parent_id: folder.id })).status).toBe(201);
  });

  it("answers 423 when the file is locked by another user, 400 for bad names and hashes", async () => {
    const { owner, other, folder, file } = await createFileScene();
    await lockAs(other, file.id);
    expectError(await create(owner.token, { name: file.name, parent_id: folder.id }), 423, "locked");
    expectError(await create(owner.token, { name: "a/b", parent_id: folder.id }), 400, "invalid_name");
    expectError(await create(owner.token, { parent_id: folder.id }), 400, "invalid_request");
    expectError(await create(owner.token, { name: "ok.txt", parent_id: folder.id, hash: "xyz" }), 400, "invalid_request");
    expectError(await create(owner.token, { name: "ok.txt", parent_id: 2_000_000_000 }), 404, "not_found");
  });

  it("requires a valid token", async () => {
    await expectAuthRequired(createRoute.POST, { method: "POST", body: { name: "a.txt", parent_id: 1 } });
  });
});

describe("POST /api/file?copy=(id)", () => {
  it("copies a version into another folder under a new name, sharing the blob (201)", async () => {
    const { owner, folder, version } = await createFileScene({ text: "copy me" });
    const dest = await createOwnFolder(owner);
    const res = await create(owner.token, { name: "copy.txt", parent_id: dest.id }, { copy: version.id });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ name: "copy.txt", parent_id: dest.id, hash: md5("copy me"), size: 7 });
    expect((await versionRow(res.body.id)).blobId).toBe(version.blobId);
    const same = await create(owner.token, { name: "twin.txt" }, { copy: version.id });
    expect(same.body.parent_id).toBe(folder.id);
  });

  it("needs read and download on the source and write at the destination", async () => {
    const { other, folder, version } = await createFileScene();
    const dest = await createOwnFolder(other);
    const copy = () => create(other.token, { name: "c.txt", parent_id: dest.id }, { copy: version.id });
    expectError(await copy(), 403);
    await grantRight(folder.id, other.id, allRightsBut("read"));
    expectError(await copy(), 403, "forbidden");
    await grantRight(folder.id, other.id, allRightsBut("download"));
    expectError(await copy(), 403, "forbidden");
    await grantRight(folder.id, other.id, { read: true, download: true });
    expectError(await create(other.token, { name: "c.txt", parent_id: folder.id }, { copy: version.id }), 403, "forbidden");
    expect((await copy()).status).toBe(201);
  });

  it("answers 404 for a missing source or destination and 507 over a folder or user quota", async () => {
    const { owner, version } = await createFileScene({ text: "12345" });
    expectError(await create(owner.token, { name: "c.txt" }, { copy: 2_000_000_000 }), 404, "not_found");
    expectError(await create(owner.token, { name: "c.txt", parent_id: 2_000_000_000 }, { copy: version.id }), 404, "not_found");
    const small = await createOwnFolder(owner);
    const db = await getDb();
    await db.update(folders).set({ quota: 4 }).where(eq(folders.id, small.id));
    expectError(await create(owner.token, { name: "c.txt", parent_id: small.id }, { copy: version.id }), 507, "insufficient_storage");
    await db.update(users).set({ quota: 7 }).where(eq(users.id, owner.id));
    expectError(await create(owner.token, { name: "c2.txt" }, { copy: version.id }), 507, "insufficient_storage");
    expect(await getBlobStore().size(version.blobId!)).toBe(5);
  });
});
