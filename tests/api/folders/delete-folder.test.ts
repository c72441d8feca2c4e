import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as folderRoute from "@/app/api/folder/[folderId]/route";
import { getDb } from "@/db";
import { fileLocks, files, folders, trashItems } from "@/db/schema";
import { trashItemResponse } from "@/lib/contracts/trash";
import { createAdmin, createTestUser, unique } from "../../helpers/factories";
import { allRightsBut, createFolder, grantRight, uploadText } from "../../helpers/files";
import { expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";
import { latestLog } from "../users/fixtures";
import { at, createSharedScene, deleteFolder, getFolder } from "./fixtures";
import { OPEN_TIMEOUT, openDatabase } from "./fixtures";

beforeAll(openDatabase, OPEN_TIMEOUT);

async function folderRow(id: number) {
  const db = await getDb();
  return (await db.select().from(folders).where(eq(folders.id, id)))[0];
}

describe("DELETE /api/folder/(folderId)", () => {
  it("sends the folder and its subtree to the trash and answers the Trash item", async () => {
    const { owner, work } = await createSharedScene();
    const sub = await createFolder(owner, work.id, "Sub");
    const { file } = await uploadText(owner, sub.id, "a.txt", "12345");
    await uploadText(owner, work.id, "b.txt", "123");
    const res = await deleteFolder(owner.token, work.id);
    expect(res.status, res.text).toBe(200);
    const item = trashItemResponse.parse(res.body);
    expect(item).toMatchObject({ name: "Work", is_file: false, owner_id: String(owner.id), size: 8, nb_folders: 1, nb_files: 2 });
    expect((await folderRow(sub.id)).deletedAt).not.toBeNull();
    const db = await getDb();
    const [trashed] = await db.select().from(files).where(eq(files.id, file.id));
    expect(trashed.trashId).toBe(item.id);
    expect((await db.select().from(trashItems).where(eq(trashItems.id, item.id)))[0].folderId).toBe(work.id);
    expectError(await getFolder(owner.token, work.id), 404, "not_found");
    expect(await latestLog("folder", work.id, "ADMLLOG_DELETE")).toBeTruthy();
  });

  it("deletes for good with trash=0 (204)", async () => {
    const { owner, work } = await createSharedScene();
    const sub = await createFolder(owner, work.id, "Sub");
    await uploadText(owner, sub.id, "a.txt", "x");
    const res = await deleteFolder(owner.token, work.id, { trash: 0 });
    expect(res.status, res.text).toBe(204);
    expect(await folderRow(work.id)).toBeUndefined();
    expect(await folderRow(sub.id)).toBeUndefined();
  });

  it("needs the delete right in the parent (403) and a browsable folder (404)", async () => {
    const { owner, guest, work } = await createSharedScene();
    const sub = await createFolder(owner, work.id, "Sub");
    expectError(await deleteFolder(guest.token, sub.id), 404, "not_found");
    await grantRight(work.id, guest.id, allRightsBut("delete"));
    expectError(await deleteFolder(guest.token, sub.id), 403, "forbidden");
    await grantRight(work.id, guest.id, { read: true, delete: true });
    expect((await deleteFolder(guest.token, sub.id)).status).toBe(200);
    expectError(await deleteFolder(owner.token, 2_000_000_000), 404, "not_found");
  });

  it("never deletes a private space root, and keeps company top folders for administrators", async () => {
    const user = await createTestUser();
    expectError(await deleteFolder(user.token, user.privateRootId!), 403, "forbidden");
    const admin = await createAdmin();
    expectError(await deleteFolder(admin.token, user.privateRootId!), 403, "forbidden");
    const top = await createFolder(admin, 0, unique("Top "));
    await grantRight(top.id, user.id, { read: true, delete: true });
    expectError(await deleteFolder(user.token, top.id), 403, "forbidden");
    expect((await deleteFolder(admin.token, top.id, { trash: 0 })).status).toBe(204);
  });

  it("refuses with 423 while a file inside is locked by someone else", async () => {
    const { owner, guest, work } = await createSharedScene();
    const { file } = await uploadText(owner, work.id, "a.txt", "x");
    const db = await getDb();
    await db.insert(fileLocks).values({ fileId: file.id, ownerId: guest.id });
    expectError(await deleteFolder(owner.token, work.id), 423, "locked");
    await db.delete(fileLocks).where(eq(fileLocks.fileId, file.id));
    await db.insert(fileLocks).values({ fileId: file.id, ownerId: owner.id });
    expect((await deleteFolder(owner.token, work.id)).status).toBe(200);
    expect(await db.select().from(fileLocks).where(eq(fileLocks.fileId, file.id))).toEqual([]);
  });

  it("requires a valid token", async () => {
    const { work } = await createSharedScene();
    await expectAuthRequired(folderRoute.DELETE, { ...at(work.id), method: "DELETE" });
  });
});
