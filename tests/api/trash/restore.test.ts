import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as trashRoute from "@/app/api/trash/[trashId]/route";
import { getDb } from "@/db";
import { folders, trashItems } from "@/db/schema";
import { fileResponse } from "@/lib/contracts/files";
import { createAdmin, createTestUser } from "../../helpers/factories";
import { createFileScene, createOwnFolder, findTrashItem, latestLog, liveVersionIds, lockAs, OPEN_TIMEOUT, openDatabase, reloadFile, reloadFolder, removeLock } from "../../helpers/file-ops-factories";
import { allRightsBut, createFolder, grantRight, uploadText } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";
import { trashFile, trashFolder } from "./fixtures";

const restore = (token: string, id: number, body: unknown = {}) =>
  call(trashRoute.PUT, { method: "PUT", path: `/api/trash/${id}`, token, params: { trashId: String(id) }, body });

beforeAll(openDatabase, OPEN_TIMEOUT);

describe("PUT /api/trash/(trashId): files", () => {
  it("restores a file to its original folder, answering the File, and logs it", async () => {
    const { owner, folder, file, version } = await createFileScene();
    const id = await trashFile(owner.token, version.id);
    const res = await restore(owner.token, id);
    expect(res.status, res.text).toBe(200);
    expect(fileResponse.parse(res.body)).toMatchObject({ id: version.id, name: file.name, parent_id: folder.id });
    expect(await reloadFile(file.id)).toMatchObject({ deletedAt: null, trashId: null, folderId: folder.id });
    expect(await findTrashItem(id)).toBeUndefined();
    expect(await latestLog("file", version.id, "ADMLLOG_RESTORE")).toMatchObject({ userId: owner.id });
    expectError(await restore(owner.token, id), 404, "not_found");
  });

  it("gives a numbered name when the name was taken meanwhile, and restores into folder_id", async () => {
    const { owner, folder, file, version } = await createFileScene({ name: "report.txt" });
    const id = await trashFile(owner.token, version.id);
    await uploadText(owner, folder.id, "Report.txt", "new one");
    expect((await restore(owner.token, id)).body.name).toBe("report (2).txt");

    const again = await trashFile(owner.token, version.id);
    const dest = await createOwnFolder(owner);
    const res = await restore(owner.token, again, { folder_id: dest.id });
    expect(res.body).toMatchObject({ parent_id: dest.id, name: "report (2).txt" });
    expect((await reloadFile(file.id)).folderId).toBe(dest.id);
  });

  it("restores trashed versions into their live file", async () => {
    const { owner, folder, file, version } = await createFileScene({ text: "one" });
    const v2 = await uploadText(owner, folder.id, file.name, "two");
    const id = await trashFile(owner.token, v2.version.id, "none");
    expect((await reloadFile(file.id)).currentVersionId).toBe(version.id);
    const res = await restore(owner.token, id);
    expect(res.status, res.text).toBe(200);
    expect(res.body.id).toBe(v2.version.id);
    expect(await liveVersionIds(file.id)).toEqual([version.id, v2.version.id]);
    expect((await reloadFile(file.id)).currentVersionId).toBe(v2.version.id);
  });

  it("refuses versions whose file is in the trash (409), moved elsewhere (400), or locked by another (423)", async () => {
    const { owner, other, folder, file } = await createFileScene({ text: "one" });
    const v2 = await uploadText(owner, folder.id, file.name, "two");
    const versionsItem = await trashFile(owner.token, v2.version.id, "none");
    const dest = await createOwnFolder(owner);
    expectError(await restore(owner.token, versionsItem, { folder_id: dest.id }), 400, "invalid_request");
    await lockAs(other, file.id);
    expectError(await restore(owner.token, versionsItem), 423, "locked");
    await removeLock(file.id);
    const fileItem = await trashFile(owner.token, (await reloadFile(file.id)).currentVersionId!);
    expectError(await restore(owner.token, versionsItem), 409, "conflict");
    expect((await restore(owner.token, fileItem)).status).toBe(200);
    expect((await restore(owner.token, versionsItem)).status).toBe(200);
    expect(await liveVersionIds(file.id)).toHaveLength(2);
  });

  it("falls back to the trash owner's private space when the original folder is in the trash", async () => {
    const { owner, folder, file, version } = await createFileScene();
    const id = await trashFile(owner.token, version.id);
    await trashFolder(await reloadFolder(folder.id), owner);
    const res = await restore(owner.token, id);
    expect(res.status, res.text).toBe(200);
    expect(res.body.parent_id).toBe(owner.privateRootId);
    expect((await reloadFile(file.id)).folderId).toBe(owner.privateRootId);
  });

  it("needs write at the destination (403), 404 for an unknown one, 400 for the top level, 507 over its quota", async () => {
    const { owner, other, folder, version } = await createFileScene({ text: "12345" });
    await grantRight(folder.id, other.id, { delete: true });
    const id = await trashFile(other.token, version.id);
    expectError(await restore(other.token, id), 403, "forbidden");
    const foreign = await createOwnFolder(owner);
    await grantRight(foreign.id, other.id, allRightsBut("write"));
    expectError(await restore(other.token, id, { folder_id: foreign.id }), 403, "forbidden");
    expectError(await restore(owner.token, id, { folder_id: 2_000_000_000 }), 404, "not_found");
    expectError(await restore(owner.token, id, { folder_id: 0 }), 400, "invalid_request");
    const small = await createOwnFolder(owner);
    const db = await getDb();
    await db.update(folders).set({ quota: 4 }).where(eq(folders.id, small.id));
    expectError(await restore(owner.token, id, { folder_id: small.id }), 507, "insufficient_storage");
    // Who deleted it may undo it while they hold the delete right there, with write to put it back.
    await grantRight(folder.id, other.id, { delete: true, write: true });
    expect((await restore(other.token, id)).status).toBe(200);
  });

  it("answers 404 to a user who neither owns nor deleted the item", async () => {
    const { owner, version } = await createFileScene();
    const id = await trashFile(owner.token, version.id);
    expectError(await restore((await createTestUser()).token, id), 404, "not_found");
    expect(await findTrashItem(id)).toBeDefined();
  });

  it("requires a valid token", async () => {
    await expectAuthRequired(trashRoute.PUT, { method: "PUT", params: { trashId: "1" }, body: {} });
  });
});

describe("PUT /api/trash/(trashId): folders", () => {
  it("restores a folder with its subtree and files, answering the Folder", async () => {
    const owner = await createTestUser();
    const parent = await createOwnFolder(owner);
    const folder = await createFolder(owner, parent.id, "Old");
    const sub = await createFolder(owner, folder.id, "Sub");
    const inner = await uploadText(owner, sub.id, "in.txt", "x");
    const id = await trashFolder(folder, owner);
    expect((await reloadFolder(sub.id)).trashId).toBe(id);
    const res = await restore(owner.token, id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: folder.id, name: "Old", parent_id: parent.id, can_write: true });
    expect(await reloadFolder(sub.id)).toMatchObject({ deletedAt: null, trashId: null });
    expect(await reloadFile(inner.file.id)).toMatchObject({ deletedAt: null, trashId: null });
  });

  it("moves a restored folder into folder_id, re-rooting its subtree, with a numbered name on a clash", async () => {
    const owner = await createTestUser();
    const folder = await createOwnFolder(owner, "Docs");
    const sub = await createFolder(owner, folder.id, "Sub");
    const deep = await createFolder(owner, sub.id, "Deep");
    const id = await trashFolder(folder, owner);
    const dest = await createOwnFolder(owner);
    await createFolder(owner, dest.id, "docs");
    const res = await restore(owner.token, id, { folder_id: String(dest.id) });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ parent_id: dest.id, name: "Docs (2)" });
    const root = owner.privateRootId!;
    expect((await reloadFolder(folder.id)).path).toEqual([root, dest.id]);
    expect((await reloadFolder(sub.id)).path).toEqual([root, dest.id, folder.id]);
    expect((await reloadFolder(deep.id)).path).toEqual([root, dest.id, folder.id, sub.id]);
  });

  it("restores a folder trashed without trash_id on its subtree (deleted users' spaces), never inside itself (409)", async () => {
    const owner = await createTestUser();
    const folder = await createOwnFolder(owner);
    const child = await createFolder(owner, folder.id, "child");
    const db = await getDb();
    // As deleting a user does: only the top folder is marked.
    await db.update(folders).set({ deletedAt: new Date() }).where(eq(folders.id, folder.id));
    const [item] = await db.insert(trashItems).values({ folderId: folder.id, ownerId: owner.id, deletedBy: owner.id, originalParentId: folder.parentId }).returning();
    const shown = await call(trashRoute.GET, { token: owner.token, params: { trashId: String(item.id) } });
    expect(shown.body).toMatchObject({ name: folder.name, is_file: false, nb_folders: 0 });
    expectError(await restore(owner.token, item.id, { folder_id: child.id }), 409, "conflict");
    expect((await restore(owner.token, item.id)).status).toBe(200);
    expect((await reloadFolder(folder.id)).deletedAt).toBeNull();
  });

  it("restores at the top level only for administrators (403 otherwise)", async () => {
    const owner = await createTestUser();
    const folder = await createOwnFolder(owner);
    const id = await trashFolder(folder, owner);
    expectError(await restore(owner.token, id, { folder_id: 0 }), 403, "forbidden");
    const admin = await createAdmin();
    const top = await restore(admin.token, id, { folder_id: 0 });
    expect(top.status, top.text).toBe(200);
    expect(await reloadFolder(folder.id)).toMatchObject({ parentId: null, path: [] });
  });
});
