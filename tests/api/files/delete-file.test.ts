import { mkdir, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as fileRoute from "@/app/api/file/[fileId]/route";
import * as cancelRoute from "@/app/api/file/cancel/route";
import { getDb } from "@/db";
import { fileVersions, jobs, uploads } from "@/db/schema";
import { trashItemResponse } from "@/lib/contracts/trash";
import { getBlobStore } from "@/lib/storage";
import { unique } from "../../helpers/factories";
import { createFileScene, findTrashItem, latestLog, liveVersionIds, lockAs, OPEN_TIMEOUT, openDatabase, reloadFile } from "../../helpers/file-ops-factories";
import { allRightsBut, grantRight, uploadText } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";

const remove = (token: string, id: number, query: Record<string, string> = {}) =>
  call(fileRoute.DELETE, { method: "DELETE", path: `/api/file/${id}`, token, params: { fileId: String(id) }, query });
const read = (token: string, id: number) => call(fileRoute.GET, { token, params: { fileId: String(id) } });

/** A file with three versions "one", "two!", "three" in the owner's folder. */
async function threeVersions() {
  const scene = await createFileScene({ text: "one" });
  const v2 = await uploadText(scene.owner, scene.folder.id, scene.file.name, "two!");
  const v3 = await uploadText(scene.owner, scene.folder.id, scene.file.name, "three");
  return { ...scene, v1: scene.version, v2: v2.version, v3: v3.version };
}

beforeAll(openDatabase, OPEN_TIMEOUT);

describe("DELETE /api/file/(fileId)", () => {
  it("sends the whole file to the owner's trash by default and answers the Trash item", async () => {
    const { owner, folder, file, v1 } = await threeVersions();
    const res = await remove(owner.token, v1.id);
    expect(res.status, res.text).toBe(200);
    const item = trashItemResponse.strict().parse(res.body);
    expect(item).toMatchObject({ name: file.name, is_file: true, size: 3 + 4 + 5, owner_id: String(owner.id), parent_id: folder.id, path_name: `/Private/${folder.name}` });
    expect(await reloadFile(file.id)).toMatchObject({ trashId: item.id });
    expect((await reloadFile(file.id)).deletedAt).not.toBeNull();
    expect(await findTrashItem(item.id)).toMatchObject({ ownerId: owner.id, deletedBy: owner.id, fileId: file.id, versionIds: null });
    expectError(await read(owner.token, v1.id), 404);
    expect(await latestLog("file", v1.id, "ADMLLOG_DELETE")).toMatchObject({ userId: owner.id });
  });

  it("with versions=none trashes only that version; with previous that version and older ones", async () => {
    const { owner, file, v1, v2, v3 } = await threeVersions();
    const none = await remove(owner.token, v2.id, { versions: "none" });
    expect(none.status, none.text).toBe(200);
    expect(none.body).toMatchObject({ is_file: true, size: 4 });
    expect(await findTrashItem(none.body.id)).toMatchObject({ versionIds: [v2.id] });
    expect(await liveVersionIds(file.id)).toEqual([v1.id, v3.id]);
    expect((await reloadFile(file.id)).currentVersionId).toBe(v3.id);

    const other = await threeVersions();
    const previous = await remove(other.owner.token, other.v2.id, { versions: "previous" });
    expect(previous.body.size).toBe(3 + 4);
    expect(await liveVersionIds(other.file.id)).toEqual([other.v3.id]);
    const last = await remove(other.owner.token, other.v3.id, { versions: "previous" });
    expect(await findTrashItem(last.body.id)).toMatchObject({ versionIds: null, fileId: other.file.id });
    expect((await reloadFile(other.file.id)).deletedAt).not.toBeNull();
  });

  it("removes for good with trash=0 (204) and schedules blob collection", async () => {
    const { owner, file, v1, v2, v3 } = await threeVersions();
    const res = await remove(owner.token, v3.id, { trash: "0", versions: "none" });
    expect(res.status, res.text).toBe(204);
    expect(await liveVersionIds(file.id)).toEqual([v1.id, v2.id]);
    expect((await reloadFile(file.id)).currentVersionId).toBe(v2.id);
    expect(await remove(owner.token, v1.id, { trash: "false" })).toMatchObject({ status: 204 });
    expect(await reloadFile(file.id)).toBeUndefined();
    const db = await getDb();
    expect(await db.select().from(fileVersions).where(eq(fileVersions.fileId, file.id))).toEqual([]);
    const pending = await db.select().from(jobs).where(and(eq(jobs.kind, "blobs.collect"), eq(jobs.status, "pending")));
    expect(pending.length).toBeGreaterThan(0);
  });

  it("puts what a collaborator deletes in the space owner's trash", async () => {
    const { owner, other, folder, version } = await createFileScene();
    await grantRight(folder.id, other.id, { delete: true });
    const res = await remove(other.token, version.id);
    expect(res.status, res.text).toBe(200);
    expect(await findTrashItem(res.body.id)).toMatchObject({ ownerId: owner.id, deletedBy: other.id });
  });

  it("needs delete (403), refuses another user (403), 404 when unknown, 423 when locked by another", async () => {
    const { owner, other, folder, file, version } = await createFileScene();
    expectError(await remove(other.token, version.id), 403);
    await grantRight(folder.id, other.id, allRightsBut("delete"));
    expectError(await remove(other.token, version.id), 403, "forbidden");
    expectError(await remove(owner.token, 2_000_000_000), 404, "not_found");
    expectError(await remove(owner.token, version.id, { versions: "some" }), 400, "invalid_request");
    await lockAs(other, file.id);
    expectError(await remove(owner.token, version.id), 423, "locked");
    expect((await reloadFile(file.id)).deletedAt).toBeNull();
  });

  it("requires a valid token", async () => {
    const { version } = await createFileScene();
    await expectAuthRequired(fileRoute.DELETE, { method: "DELETE", params: { fileId: String(version.id) } });
  });
});

describe("DELETE /api/file/cancel", () => {
  async function stageUpload(userId: number, folderId: number, name: string) {
    const db = await getDb();
    const id = unique("up");
    await db.insert(uploads).values({ id, kind: "chunked", userId, folderId, name, size: 10, chunks: 2, chunkSize: 5 });
    const temp = getBlobStore().tempDir;
    await mkdir(path.join(temp, "chunks", id), { recursive: true });
    await writeFile(path.join(temp, "chunks", id, "0"), "12345");
    await mkdir(path.join(temp, "tus"), { recursive: true });
    await writeFile(path.join(temp, "tus", id), "12345");
    await writeFile(path.join(temp, "tus", `${id}.json`), "{}");
    return id;
  }
  const exists = (p: string) => stat(p).then(() => true, () => false);
  const cancel = (token: string, body: unknown) => call(cancelRoute.DELETE, { method: "DELETE", path: "/api/file/cancel", token, body });

  it("removes the caller's unfinished upload and its temporary data, answering OK", async () => {
    const { owner, other, folder } = await createFileScene();
    await grantRight(folder.id, other.id, { write: true });
    const mine = await stageUpload(owner.id, folder.id, "Big.bin");
    const theirs = await stageUpload(other.id, folder.id, "big.bin");
    const res = await cancel(owner.token, { folderId: String(folder.id), filename: "big.BIN" });
    expect(res.status, res.text).toBe(200);
    expect(res.text).toBe("OK");
    const db = await getDb();
    expect(await db.select().from(uploads).where(eq(uploads.id, mine))).toEqual([]);
    const temp = getBlobStore().tempDir;
    expect(await exists(path.join(temp, "chunks", mine))).toBe(false);
    expect(await exists(path.join(temp, "tus", mine))).toBe(false);
    expect(await exists(path.join(temp, "tus", `${mine}.json`))).toBe(false);
    expect(await db.select().from(uploads).where(eq(uploads.id, theirs))).toHaveLength(1);
    expect(await exists(path.join(temp, "chunks", theirs))).toBe(true);
  });

  it("answers 404 when there is no such upload (or it is being finished), 403 without write, 404 for an unbrowsable folder", async () => {
    const { owner, other, folder } = await createFileScene();
    expectError(await cancel(owner.token, { folderId: folder.id, filename: "none.bin" }), 404, "not_found");
    await stageUpload(other.id, folder.id, "x.bin");
    expectError(await cancel(other.token, { folderId: folder.id, filename: "x.bin" }), 404, "not_found");
    await grantRight(folder.id, other.id, allRightsBut("write"));
    expectError(await cancel(other.token, { folderId: folder.id, filename: "x.bin" }), 403, "forbidden");
    expectError(await cancel(owner.token, { folderId: folder.id }), 400, "invalid_request");
    const finishing = await stageUpload(owner.id, folder.id, "busy.bin");
    const db = await getDb();
    await db.update(uploads).set({ context: { finishing: new Date().toISOString() } }).where(eq(uploads.id, finishing));
    expectError(await cancel(owner.token, { folderId: folder.id, filename: "busy.bin" }), 404, "not_found");
    expect(await db.select().from(uploads).where(eq(uploads.id, finishing))).toHaveLength(1);
  });

  it("requires a valid token", async () => {
    await expectAuthRequired(cancelRoute.DELETE, { method: "DELETE", body: { folderId: 1, filename: "x" } });
  });
});
