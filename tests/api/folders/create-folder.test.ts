import { and, eq, isNull } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as createRoute from "@/app/api/folder/route";
import { getDb } from "@/db";
import { blobs, events, fileVersions, files, folders } from "@/db/schema";
import { folderResponse } from "@/lib/contracts/folders";
import { createAdmin, createTestUser, unique } from "../../helpers/factories";
import { allRightsBut, createFolder, grantRight, uploadText } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";
import { latestLog } from "../users/fixtures";
import { createSharedScene, getFolder, names, postFolder } from "./fixtures";
import { OPEN_TIMEOUT, openDatabase } from "./fixtures";

beforeAll(openDatabase, OPEN_TIMEOUT);

async function childrenOf(parentId: number) {
  const db = await getDb();
  return db.select().from(folders).where(and(eq(folders.parentId, parentId), isNull(folders.deletedAt)));
}

describe("POST /api/folder", () => {
  it("creates a folder (201) with its path, an event and a log entry", async () => {
    const { owner, work } = await createSharedScene();
    const res = await postFolder(owner.token, { name: "Plans", parent_id: work.id }, { full: 1 });
    expect(res.status, res.text).toBe(201);
    const body = folderResponse.parse(res.body);
    expect(body).toMatchObject({ name: "Plans", parent_id: work.id, owner_id: String(owner.id), quota: -1, path: `/${owner.privateRootId}/${work.id}`, nb_files: 0 });
    const db = await getDb();
    const [row] = await db.select().from(folders).where(eq(folders.id, body.id));
    expect(row).toMatchObject({ space: "private", path: [owner.privateRootId, work.id], parentId: work.id });
    const [event] = await db.select().from(events).where(and(eq(events.targetType, "folder"), eq(events.targetId, body.id)));
    expect(event).toMatchObject({ type: 0, actorId: owner.id });
    expect(await latestLog("folder", body.id, "ADMLLOG_INSERT")).toBeTruthy();
  });

  it("answers 200 with the existing folder of that name (any case), and 403 when it is hidden from the caller", async () => {
    const { owner, guest, work } = await createSharedScene();
    const existing = await createFolder(owner, work.id, "Shared Stuff");
    await grantRight(work.id, guest.id, { read: true, write: true });
    const again = await postFolder(guest.token, { name: "shared stuff", parent_id: work.id });
    expect(again.status, again.text).toBe(200);
    expect(again.body.id).toBe(existing.id);
    expect((await childrenOf(work.id)).length).toBe(1);

    await grantRight(existing.id, guest.id, { browse: false });
    expectError(await postFolder(guest.token, { name: "Shared Stuff", parent_id: work.id }), 403, "forbidden");
  });

  it("turns concurrent creations of one name into one folder (one 201, the others 200)", async () => {
    const { owner, work } = await createSharedScene();
    const results = await Promise.all([1, 2, 3, 4].map(() => postFolder(owner.token, { name: "Race", parent_id: work.id })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 201]);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect((await childrenOf(work.id)).length).toBe(1);
  });

  it("needs write in the parent (403), a browsable parent (404), a valid name (400)", async () => {
    const { owner, guest, work } = await createSharedScene();
    expectError(await postFolder(guest.token, { name: "x", parent_id: work.id }), 404, "not_found");
    await grantRight(work.id, guest.id, allRightsBut("write"));
    expectError(await postFolder(guest.token, { name: "x", parent_id: work.id }), 403, "forbidden");
    await grantRight(work.id, guest.id, { write: true });
    expect((await postFolder(guest.token, { name: "x", parent_id: work.id })).status).toBe(201);
    expectError(await postFolder(owner.token, { name: "a/b", parent_id: work.id }), 400, "invalid_name");
    expectError(await postFolder(owner.token, { name: "..", parent_id: work.id }), 400, "invalid_name");
    expectError(await postFolder(owner.token, { parent_id: work.id }), 400, "invalid_request");
    expectError(await postFolder(owner.token, { name: "x" }), 400, "invalid_request");
    expectError(await postFolder(owner.token, { name: "x", parent_id: 2_000_000_000 }), 404, "not_found");
  });

  it("keeps parent_id 0, quota and purge_frequency for administrators", async () => {
    const { owner, work } = await createSharedScene();
    expectError(await postFolder(owner.token, { name: unique("Top"), parent_id: 0 }), 403, "forbidden");
    expectError(await postFolder(owner.token, { name: "q", parent_id: work.id, quota: 100 }), 403, "forbidden");
    expectError(await postFolder(owner.token, { name: "p", parent_id: work.id, purge_frequency: 3 }), 403, "forbidden");

    const admin = await createAdmin();
    const name = unique("Company ");
    const top = await postFolder(admin.token, { name, parent_id: 0, quota: 5000, purge_frequency: 7 }, { full: 1 });
    expect(top.status, top.text).toBe(201);
    expect(top.body).toMatchObject({ name, parent_id: 0, quota: 5000, purge_frequency: 7, path: "/" });
    const db = await getDb();
    expect((await db.select().from(folders).where(eq(folders.id, top.body.id)))[0].space).toBe("company");
    const same = await postFolder(admin.token, { name: name.toUpperCase(), parent_id: 0 });
    expect(same.status).toBe(200);
    expect(same.body.id).toBe(top.body.id);
  });

  it("requires a valid token", async () => {
    await expectAuthRequired(createRoute.POST, { method: "POST", body: { name: "x", parent_id: 1 } });
  });

  it("answers 405 for GET /api/folder", async () => {
    const user = await createTestUser();
    expectError(await call(createRoute.GET, { token: user.token }), 405);
  });
});

describe("POST /api/folder?copy=(folderId)", () => {
  it("copies the tree with the latest version of each file sharing its blob (201)", async () => {
    const { owner, work } = await createSharedScene();
    const sub = await createFolder(owner, work.id, "Sub");
    await createFolder(owner, sub.id, "Empty");
    await uploadText(owner, work.id, "a.txt", "first");
    const latest = await uploadText(owner, work.id, "a.txt", "second version");
    const inSub = await uploadText(owner, sub.id, "b.txt", "bbb");
    const dest = await createFolder(owner, owner.privateRootId!, "Archive");
    const db = await getDb();

    const res = await postFolder(owner.token, { parent_id: dest.id }, { copy: work.id, full: 1 });
    expect(res.status, res.text).toBe(201);
    const copy = folderResponse.parse(res.body);
    expect(copy).toMatchObject({ name: "Work", parent_id: dest.id, nb_folders: 2, nb_files: 2, size: 14 + 3 });
    const tree = folderResponse.parse((await getFolder(owner.token, copy.id, { depth: -1 })).body);
    expect(names(tree.content!.folders)).toEqual(["Sub"]);
    expect(names(tree.content!.folders[0].content!.folders)).toEqual(["Empty"]);
    const copiedA = tree.content!.files[0] as { id: number; hash: string };
    expect(copiedA.hash).toBe(latest.version.md5);

    const [versionA] = await db.select().from(fileVersions).where(eq(fileVersions.id, copiedA.id));
    expect(versionA).toMatchObject({ blobId: latest.version.blobId, number: 1, creatorId: owner.id });
    const copiedB = tree.content!.folders[0].content!.files[0] as { id: number };
    const [versionB] = await db.select().from(fileVersions).where(eq(fileVersions.id, copiedB.id));
    expect(versionB.blobId).toBe(inSub.version.blobId);
    // No byte was written: the copies reference the very blob rows of the source versions.
    expect(await db.select({ id: blobs.id }).from(blobs).where(eq(blobs.id, latest.version.blobId!))).toHaveLength(1);
    // The source is untouched.
    expect((await db.select().from(files).where(eq(files.folderId, work.id))).length).toBe(1);
    expect(await latestLog("folder", copy.id, "ADMLLOG_INSERT")).toBeTruthy();
  });

  it("answers 409 when the name exists at the destination", async () => {
    const { owner, work } = await createSharedScene();
    const dest = await createFolder(owner, owner.privateRootId!, "Dest");
    await createFolder(owner, dest.id, "work");
    expectError(await postFolder(owner.token, { parent_id: dest.id }, { copy: work.id }), 409, "conflict");
  });

  it("needs read and download on the source and write on the destination, and copies only what the caller sees", async () => {
    const { owner, guest, work } = await createSharedScene();
    const hidden = await createFolder(owner, work.id, "Hidden");
    await uploadText(owner, hidden.id, "h.txt", "h");
    await uploadText(owner, work.id, "w.txt", "w");
    await grantRight(hidden.id, guest.id, { browse: false });
    const target = guest.privateRootId!;

    expectError(await postFolder(guest.token, { parent_id: target }, { copy: work.id }), 404, "not_found");
    await grantRight(work.id, guest.id, allRightsBut("download"));
    expectError(await postFolder(guest.token, { parent_id: target }, { copy: work.id }), 403, "forbidden");
    await grantRight(work.id, guest.id, allRightsBut("read"));
    expectError(await postFolder(guest.token, { parent_id: target }, { copy: work.id }), 403, "forbidden");
    await grantRight(work.id, guest.id, { read: true, download: true });
    expectError(await postFolder(guest.token, { parent_id: work.id }, { copy: work.id }), 403, "forbidden");

    const res = await postFolder(guest.token, { parent_id: target }, { copy: work.id, full: 1 });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ owner_id: String(guest.id), nb_folders: 0, nb_files: 1 });
  });

  it("refuses with 507 when the copied bytes exceed the caller's quota", async () => {
    const { owner, work } = await createSharedScene();
    await uploadText(owner, work.id, "big.txt", "x".repeat(100));
    const copier = await createTestUser({ quota: 150 });
    await grantRight(work.id, copier.id, { read: true, download: true });
    expect((await postFolder(copier.token, { parent_id: copier.privateRootId! }, { copy: work.id })).status).toBe(201);
    const dest = await createFolder(copier, copier.privateRootId!, "again");
    expectError(await postFolder(copier.token, { parent_id: dest.id }, { copy: work.id }), 507, "insufficient_storage");
    expect(await childrenOf(dest.id)).toEqual([]);
  });
});
