import { inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as folderRoute from "@/app/api/folder/[folderId]/route";
import { getDb } from "@/db";
import { fileLocks, folders } from "@/db/schema";
import { folderResponse } from "@/lib/contracts/folders";
import { createAdmin, createTestUser, unique } from "../../helpers/factories";
import { allRightsBut, createFolder, grantRight, uploadText } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";
import { latestLog } from "../users/fixtures";
import { at, createSharedScene, getFolder, putFolder } from "./fixtures";
import { OPEN_TIMEOUT, openDatabase } from "./fixtures";

beforeAll(openDatabase, OPEN_TIMEOUT);

async function rowsOf(ids: number[]) {
  const db = await getDb();
  const found = await db.select().from(folders).where(inArray(folders.id, ids));
  return new Map(found.map((f) => [f.id, f]));
}

describe("PUT /api/folder/(folderId): rename", () => {
  it("renames (PATCH too), logs it, and answers 409 when a sibling has the name", async () => {
    const { owner, work } = await createSharedScene();
    const sub = await createFolder(owner, work.id, "Old");
    await createFolder(owner, work.id, "Taken");
    const res = await putFolder(owner.token, sub.id, { name: "New" });
    expect(res.status, res.text).toBe(200);
    expect(folderResponse.parse(res.body)).toMatchObject({ id: sub.id, name: "New", parent_id: work.id });
    expect((await latestLog("folder", sub.id, "ADMLLOG_UPDATE"))?.message).toMatch(/Renamed folder Old to New/);
    const patch = await call(folderRoute.PATCH, { ...at(sub.id), method: "PATCH", token: owner.token, body: { name: "new" } });
    expect(patch.body.name).toBe("new");
    expectError(await putFolder(owner.token, sub.id, { name: "TAKEN" }), 409, "conflict");
    expectError(await putFolder(owner.token, sub.id, { name: "bad\\name" }), 400, "invalid_name");
  });

  it("needs the edit right in the parent (403), and a browsable folder (404)", async () => {
    const { owner, guest, work } = await createSharedScene();
    const sub = await createFolder(owner, work.id, "Sub");
    expectError(await putFolder(guest.token, sub.id, { name: "x" }), 404, "not_found");
    await grantRight(work.id, guest.id, allRightsBut("edit"));
    expectError(await putFolder(guest.token, sub.id, { name: "x" }), 403, "forbidden");
    await grantRight(work.id, guest.id, { edit: true });
    expect((await putFolder(guest.token, sub.id, { name: "x" })).status).toBe(200);
  });

  it("keeps private space roots: nobody moves or deletes them, only administrators rename them", async () => {
    const user = await createTestUser();
    const root = user.privateRootId!;
    expectError(await putFolder(user.token, root, { name: "Mine" }), 403, "forbidden");
    const admin = await createAdmin();
    const other = await createFolder(admin, admin.privateRootId!, "elsewhere");
    expectError(await putFolder(admin.token, root, { parent_id: other.id }), 403, "forbidden");
    expect((await putFolder(admin.token, root, { name: "Home" })).body.name).toBe("Home");
  });
});

describe("PUT /api/folder/(folderId): move", () => {
  it("moves a subtree, rewriting every path in it, and logs it", async () => {
    const { owner, work } = await createSharedScene();
    const a = await createFolder(owner, work.id, "A");
    const b = await createFolder(owner, a.id, "B");
    const c = await createFolder(owner, b.id, "C");
    const dest = await createFolder(owner, owner.privateRootId!, "Dest");
    const res = await putFolder(owner.token, a.id, { parent_id: dest.id }, { full: 1 });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ parent_id: dest.id, path: `/${owner.privateRootId}/${dest.id}`, path_name: "/Private/Dest" });
    const rows = await rowsOf([a.id, b.id, c.id]);
    expect(rows.get(a.id)!.path).toEqual([owner.privateRootId, dest.id]);
    expect(rows.get(b.id)!.path).toEqual([owner.privateRootId, dest.id, a.id]);
    expect(rows.get(c.id)!).toMatchObject({ path: [owner.privateRootId, dest.id, a.id, b.id], parentId: b.id });
    expect((await latestLog("folder", a.id, "ADMLLOG_UPDATE"))?.message).toMatch(/Moved/);
    // Rename and move at once.
    const both = await putFolder(owner.token, a.id, { parent_id: work.id, name: "A2" });
    expect(both.body).toMatchObject({ parent_id: work.id, name: "A2" });
  });

  it("refuses a move into the folder itself or its subtree (400) and a name clash (409)", async () => {
    const { owner, work } = await createSharedScene();
    const a = await createFolder(owner, work.id, "A");
    const inside = await createFolder(owner, a.id, "Inside");
    expectError(await putFolder(owner.token, a.id, { parent_id: a.id }), 400, "invalid_request");
    expectError(await putFolder(owner.token, a.id, { parent_id: inside.id }), 400, "invalid_request");
    const dest = await createFolder(owner, owner.privateRootId!, "Dest");
    await createFolder(owner, dest.id, "a");
    expectError(await putFolder(owner.token, a.id, { parent_id: dest.id }), 409, "conflict");
    expect((await rowsOf([a.id])).get(a.id)!.parentId).toBe(work.id);
  });

  it("needs read, download, edit and delete in the source parent and write in the destination", async () => {
    const { owner, guest, work } = await createSharedScene();
    const a = await createFolder(owner, work.id, "A");
    const dest = await createFolder(owner, work.id, "Dest");
    await grantRight(work.id, guest.id, allRightsBut("delete"));
    expectError(await putFolder(guest.token, a.id, { parent_id: dest.id }), 403, "forbidden");
    // The delete right alone does not take a folder away (issue 25).
    await grantRight(work.id, guest.id, { read: true, delete: true });
    expectError(await putFolder(guest.token, a.id, { parent_id: dest.id }), 403, "forbidden");
    await grantRight(work.id, guest.id, allRightsBut("write"));
    expectError(await putFolder(guest.token, a.id, { parent_id: dest.id }), 403, "forbidden");
    await grantRight(dest.id, guest.id, { write: true });
    const other = await createTestUser();
    expectError(await putFolder(guest.token, a.id, { parent_id: other.privateRootId! }), 404, "not_found");
    expectError(await putFolder(guest.token, a.id, { parent_id: 0 }), 403, "forbidden");
    expect((await putFolder(guest.token, a.id, { parent_id: dest.id })).status).toBe(200);
  });

  it("makes a moved subtree belong to its new tree, so the old owner's rights do not follow it", async () => {
    const admin = await createAdmin();
    const company = await createFolder(admin, 0, unique("Company "));
    const user = await createTestUser();
    await grantRight(company.id, user.id, { read: true, write: true });
    const mine = await createFolder(user, user.privateRootId!, "Project");
    const inner = await createFolder(user, mine.id, "Inner");
    const res = await putFolder(user.token, mine.id, { parent_id: company.id });
    expect(res.status, res.text).toBe(200);
    const rows = await rowsOf([mine.id, inner.id]);
    expect(rows.get(inner.id)).toMatchObject({ space: "company", ownerId: admin.id });
    expect((await getFolder(user.token, inner.id)).body).toMatchObject({ can_write: true, can_delete: false });
  });

  it("refuses with 423 when a file inside is locked by someone else", async () => {
    const { owner, guest, work } = await createSharedScene();
    const a = await createFolder(owner, work.id, "A");
    const { file } = await uploadText(owner, a.id, "locked.txt", "x");
    const db = await getDb();
    await db.insert(fileLocks).values({ fileId: file.id, ownerId: guest.id });
    const dest = await createFolder(owner, work.id, "Dest");
    expectError(await putFolder(owner.token, a.id, { parent_id: dest.id }), 423, "locked");
  });

  it("refuses with 507 when the moved bytes exceed the destination folder's quota", async () => {
    const admin = await createAdmin();
    const small = await createFolder(admin, admin.privateRootId!, "Small");
    await putFolder(admin.token, small.id, { quota: 10 });
    const big = await createFolder(admin, admin.privateRootId!, "Big");
    await uploadText(admin, big.id, "f.txt", "x".repeat(20));
    expectError(await putFolder(admin.token, big.id, { parent_id: small.id }), 507, "insufficient_storage");
  });
});

describe("PUT /api/folder/(folderId): quota and purge frequency", () => {
  it("lets administrators set them, recursively for the purge frequency", async () => {
    const admin = await createAdmin();
    const top = await createFolder(admin, admin.privateRootId!, "Top");
    const child = await createFolder(admin, top.id, "Child");
    const res = await putFolder(admin.token, top.id, { quota: 1000, purge_frequency: 30 }, { full: 1 });
    expect(res.body).toMatchObject({ quota: 1000, purge_frequency: 30 });
    expect((await rowsOf([child.id])).get(child.id)!.purgeFrequency).toBe(0);
    await putFolder(admin.token, top.id, { purge_frequency: 15 }, { recursive: 1 });
    const rows = await rowsOf([top.id, child.id]);
    expect(rows.get(top.id)!.purgeFrequency).toBe(15);
    expect(rows.get(child.id)!.purgeFrequency).toBe(15);
    expectError(await putFolder(admin.token, top.id, { quota: -2 }), 400, "invalid_request");
  });

  it("refuses them to others, even the owner", async () => {
    const { owner, work } = await createSharedScene();
    expectError(await putFolder(owner.token, work.id, { quota: 10 }), 403, "forbidden");
    expectError(await putFolder(owner.token, work.id, { purge_frequency: 1 }), 403, "forbidden");
  });

  it("requires a valid token", async () => {
    const { work } = await createSharedScene();
    await expectAuthRequired(folderRoute.PUT, { ...at(work.id), method: "PUT", body: { name: "x" } });
  });
});
