import { and, eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as trashRoute from "@/app/api/trash/[trashId]/route";
import * as trashesRoute from "@/app/api/trashes/route";
import { getDb } from "@/db";
import { files, folders, trashItems, trashPurges } from "@/db/schema";
import { trashItemResponse, trashListResponse } from "@/lib/contracts/trash";
import { emptyTrash } from "@/lib/server/trash/empty-trash";
import { markTrashedFilesJob } from "@/lib/server/trash/mark-trashed-files-job";
import { notBeingPurged } from "@/lib/server/trash/purging";
import { createAdmin, createTestUser } from "../../helpers/factories";
import { createFileScene, ctxIn, findTrashItem, inRolledBackTransaction, latestLog, OPEN_TIMEOUT, openDatabase, reloadFile } from "../../helpers/file-ops-factories";
import { createFolder, grantRight, uploadText } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { runJobsUntil } from "../../helpers/jobs";
import { expectAuthRequired } from "../../helpers/security";
import { trashFile, trashFolder } from "./fixtures";

const readItem = (token: string, id: number) => call(trashRoute.GET, { path: `/api/trash/${id}`, token, params: { trashId: String(id) } });
const purgeItem = (token: string, id: number) => call(trashRoute.DELETE, { method: "DELETE", token, params: { trashId: String(id) } });
const list = (token: string, query: Record<string, string> = {}) => call(trashesRoute.GET, { path: "/api/trashes", token, query });
const empty = (token: string, query: Record<string, string> = {}) => call(trashesRoute.DELETE, { method: "DELETE", path: "/api/trashes", token, query });

beforeAll(openDatabase, OPEN_TIMEOUT);

describe("GET /api/trash/(trashId)", () => {
  it("shows the item to its trash owner, to who deleted it and to administrators; 404 to others", async () => {
    const { owner, other, folder, file, version } = await createFileScene({ text: "12345" });
    await grantRight(folder.id, other.id, { delete: true });
    const id = await trashFile(other.token, version.id);
    for (const who of [owner, other, await createAdmin()]) {
      const res = await readItem(who.token, id);
      expect(res.status, res.text).toBe(200);
      expect(trashItemResponse.strict().parse(res.body)).toMatchObject({ id, name: file.name, is_file: true, size: 5, owner_id: String(owner.id), parent_id: folder.id });
    }
    expectError(await readItem((await createTestUser()).token, id), 404, "not_found");
    expectError(await readItem(owner.token, 2_000_000_000), 404, "not_found");
  });

  it("counts a folder's subtree and names only the places the caller may browse", async () => {
    const owner = await createTestUser();
    const top = await createFolder(owner, owner.privateRootId!, "Projects");
    const folder = await createFolder(owner, top.id, "Old");
    const sub = await createFolder(owner, folder.id, "Sub");
    await uploadText(owner, folder.id, "a.txt", "aaa");
    await uploadText(owner, sub.id, "b.txt", "bb");
    await uploadText(owner, sub.id, "b.txt", "bbbb");
    const id = await trashFolder(folder, owner);
    const res = await readItem(owner.token, id);
    expect(res.body).toMatchObject({ is_file: false, name: "Old", nb_folders: 1, nb_files: 2, size: 3 + 2 + 4, parent_id: top.id, path_name: "/Private/Projects" });
  });

  it("requires a valid token", async () => {
    await expectAuthRequired(trashRoute.GET, { params: { trashId: "1" } });
  });
});

describe("GET /api/trashes", () => {
  it("lists the caller's trash newest first, folders and files apart", async () => {
    const { owner, folder, version } = await createFileScene();
    const second = await uploadText(owner, folder.id, "second.txt", "x");
    const sub = await createFolder(owner, folder.id, "sub");
    const first = await trashFile(owner.token, version.id);
    const then = await trashFile(owner.token, second.version.id);
    const folderItem = await trashFolder(sub, owner);
    const res = await list(owner.token);
    expect(res.status, res.text).toBe(200);
    const body = trashListResponse.parse(res.body);
    expect(body.files.map((i) => i.id)).toEqual([then, first]);
    expect(body.folders.map((i) => i.id)).toEqual([folderItem]);
    expect((await list((await createTestUser()).token)).body).toEqual({ folders: [], files: [] });
  });

  it("lets administrators read another user's trash; refuses others (403)", async () => {
    const { owner, other, version } = await createFileScene();
    const id = await trashFile(owner.token, version.id);
    const admin = await createAdmin();
    const res = await list(admin.token, { user_id: String(owner.id) });
    expect(res.body.files.map((i: { id: number }) => i.id)).toEqual([id]);
    expectError(await list(other.token, { user_id: String(owner.id) }), 403, "forbidden");
    expect((await list(owner.token, { user_id: String(owner.id) })).status).toBe(200);
    expectError(await list(owner.token, { user_id: "abc" }), 400, "invalid_request");
  });

  it("requires a valid token", async () => {
    await expectAuthRequired(trashesRoute.GET, {});
  });
});

describe("DELETE /api/trash/(trashId)", () => {
  it("removes the item and its content for good (204)", async () => {
    const { owner, file, version } = await createFileScene();
    const id = await trashFile(owner.token, version.id);
    const res = await purgeItem(owner.token, id);
    expect(res.status, res.text).toBe(204);
    expect(await findTrashItem(id)).toBeUndefined();
    expect(await reloadFile(file.id)).toBeUndefined();
    expect(await latestLog("file", file.id, "ADMLLOG_DELETE")).toMatchObject({ userId: owner.id });
  });

  it("answers 404 to another user and for an unknown item, leaving the item", async () => {
    const { owner, other, version } = await createFileScene();
    const id = await trashFile(owner.token, version.id);
    expectError(await purgeItem(other.token, id), 404, "not_found");
    expectError(await purgeItem(owner.token, 2_000_000_000), 404, "not_found");
    expect(await findTrashItem(id)).toBeDefined();
  });

  it("requires a valid token", async () => {
    await expectAuthRequired(trashRoute.DELETE, { method: "DELETE", params: { trashId: "1" } });
  });
});

describe("DELETE /api/trashes", () => {
  it("empties the caller's trash only", async () => {
    const a = await createFileScene();
    const b = await createFileScene();
    const mine = await trashFile(a.owner.token, a.version.id);
    const theirs = await trashFile(b.owner.token, b.version.id);
    const res = await empty(a.owner.token);
    expect(res.status, res.text).toBe(204);
    // Gone for the API at once; the rows go in the background (job trash.empty).
    expectError(await readItem(a.owner.token, mine), 404, "not_found");
    expect((await list(a.owner.token)).body).toEqual({ folders: [], files: [] });
    expect((await readItem(b.owner.token, theirs)).status).toBe(200);
    await runJobsUntil(["trash.empty"], async () => ((await findTrashItem(mine)) ? undefined : true));
    expect(await reloadFile(a.file.id)).toBeUndefined();
    expect(await findTrashItem(theirs)).toBeDefined();
    expect((await list(b.owner.token)).body.files).toHaveLength(1);
  });

  it("purges a big trash in bounded batches, files of trashed folders first, and a restore never sees a purged item", async () => {
    const owner = await createTestUser();
    const folder = await createFolder(owner, owner.privateRootId!, "Big");
    for (let i = 0; i < 3; i++) await uploadText(owner, folder.id, `f${i}.txt`, "x");
    const folderItem = await trashFolder(folder, owner);
    const res = await empty(owner.token);
    expect(res.status, res.text).toBe(204);
    expectError(await call(trashRoute.PUT, { method: "PUT", token: owner.token, params: { trashId: String(folderItem) }, body: {} }), 404, "not_found");
    await runJobsUntil(["trash.empty"], async () => ((await findTrashItem(folderItem)) ? undefined : true));
    const db = await getDb();
    expect(await db.select().from(trashPurges).where(eq(trashPurges.ownerId, owner.id))).toEqual([]);
    expect(await db.select().from(folders).where(eq(folders.id, folder.id))).toEqual([]);
  });

  it("job trash.mark marks the files a trashed tree still holds live, and a purge takes them too", async () => {
    const owner = await createTestUser();
    const folder = await createFolder(owner, owner.privateRootId!, "Tree");
    const sub = await createFolder(owner, folder.id, "Sub");
    const uploaded = [await uploadText(owner, folder.id, "a.txt", "a"), await uploadText(owner, sub.id, "b.txt", "b")];
    const item = await trashFolder(folder, owner);
    const db = await getDb();
    const ids = uploaded.map((u) => u.file.id);
    // As if the batch in the request had stopped short: the job marks the rest.
    await db.update(files).set({ deletedAt: null, trashId: null }).where(inArray(files.id, ids));
    await markTrashedFilesJob(db, { trashId: item });
    expect((await db.select().from(files).where(inArray(files.id, ids))).map((f) => f.trashId)).toEqual([item, item]);
    await db.update(files).set({ deletedAt: null, trashId: null }).where(eq(files.id, ids[1]));
    expect((await purgeItem(owner.token, item)).status).toBe(204);
    expect(await db.select().from(files).where(inArray(files.id, ids))).toEqual([]);
  });

  it("lets administrators empty another user's trash; refuses others (403)", async () => {
    const { owner, other, version } = await createFileScene();
    const id = await trashFile(owner.token, version.id);
    expectError(await empty(other.token, { user_id: String(owner.id) }), 403, "forbidden");
    expectError(await empty(other.token, { user_id: "all" }), 403, "forbidden");
    expect(await findTrashItem(id)).toBeDefined();
    const admin = await createAdmin();
    expect((await empty(admin.token, { user_id: String(owner.id) })).status).toBe(204);
    expectError(await readItem(owner.token, id), 404, "not_found");
    await runJobsUntil(["trash.empty"], async () => ((await findTrashItem(id)) ? undefined : true));
  });

  it("with `all`, an administrator empties every user's trash (staged in a rolled-back transaction)", async () => {
    const a = await createFileScene();
    const b = await createFileScene();
    const ids = [await trashFile(a.owner.token, a.version.id), await trashFile(b.owner.token, b.version.id)];
    const admin = await createAdmin();
    await inRolledBackTransaction(async (tx) => {
      await emptyTrash(ctxIn(tx, admin), "all");
      expect(await tx.select().from(trashItems).where(and(inArray(trashItems.id, ids), notBeingPurged))).toEqual([]);
    });
    const db = await getDb();
    expect(await db.select().from(trashItems).where(inArray(trashItems.id, ids))).toHaveLength(2);
    expect(await db.select().from(trashItems).where(eq(trashItems.id, ids[0]))).toHaveLength(1);
  });

  it("requires a valid token", async () => {
    await expectAuthRequired(trashesRoute.DELETE, { method: "DELETE" });
  });
});
