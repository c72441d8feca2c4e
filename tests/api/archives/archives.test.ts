import fs from "node:fs/promises";
import { and, eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as fileRoute from "@/app/api/file/[fileId]/route";
import * as copyRoute from "@/app/api/file/route";
import { getDb } from "@/db";
import { archiveVersions, fileVersions, files, folders, shareRoots, ulinks } from "@/db/schema";
import { archiveResponse } from "@/lib/contracts/archives";
import { getArchiveStore } from "@/lib/storage/archive-store";
import { usedByUser } from "@/lib/server/quotas/assert-quota";
import { sweepArchiveStore } from "@/lib/server/archives/sweep-archive-store";
import path from "node:path";
import { Readable } from "node:stream";
import { createAdmin, createTestUser, latestLog, unique, type TestUser } from "../../helpers/factories";
import { lockAs, OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { allRightsBut, createFolder, grantRight, uploadText } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";
import { md5 } from "../../helpers/upload-factories";
import { getFolder, names } from "../folders/fixtures";
import { createShare } from "../shares/share-helpers";
import { trashFolder } from "../trash/fixtures";
import {
  archiveAndSettle,
  archiveFileRoute,
  archiveFolderRoute,
  archiveIt,
  deleteArchive,
  fileArchiveRoute,
  folderArchiveRoute,
  listArchives,
  listRoute,
  readArchive,
  restored,
  settled,
  unarchive,
  unarchiveFileRoute,
  unarchiveFolderRoute,
  updateArchive,
} from "./archive-helpers";

beforeAll(openDatabase, OPEN_TIMEOUT);

const readFile = (token: string, id: number) => call(fileRoute.GET, { token, params: { fileId: String(id) } });

/** An owner's "Project" folder: report.txt (two versions), "Sub" with data.bin and a copy of report.txt (sharing its blob). */
async function scene(owner?: TestUser) {
  const user = owner ?? (await createTestUser());
  const project = await createFolder(user, user.privateRootId!, unique("Project "));
  const sub = await createFolder(user, project.id, "Sub");
  const draft = await uploadText(user, project.id, "report.txt", "first draft");
  const report = await uploadText(user, project.id, "report.txt", "final report ".repeat(200));
  const data = await uploadText(user, sub.id, "data.bin", "0123456789".repeat(500));
  const copy = await call(copyRoute.POST, { method: "POST", token: user.token, query: { copy: report.version.id }, body: { name: "copy.txt", parent_id: sub.id } });
  expect(copy.status, copy.text).toBe(201);
  return { user, project, sub, report, draftId: draft.version.id, data, copyId: copy.body.id as number };
}

describe("PUT /file/(id)/archive", () => {
  it("hides the file at once, then moves its live versions to the cold tier, compressed", async () => {
    const { user, project, report } = await scene();
    const usedBefore = await usedByUser(await getDb(), user.id);
    const res = await archiveIt(user.token, "file", report.version.id);
    expect(res.status, res.text).toBe(200);
    const archive = archiveResponse.strict().parse(res.body);
    expect(archive).toMatchObject({ type: "file", object_id: report.version.id, name: "report.txt", state: "pending", size: 11 + 2600, owner_id: String(user.id), nb_files: 1, nb_folders: 0 });
    expect(archive.path_name).toBe(`/${(await getDb().then((db) => db.select().from(folders).where(eq(folders.id, user.privateRootId!))))[0].name}/${project.name}`);
    // Gone from the live tree at once.
    expectError(await readFile(user.token, report.version.id), 404, "not_found");
    expect(names((await getFolder(user.token, project.id)).body.content.files)).toEqual([]);
    expect((await getFolder(user.token, project.id, { recursive: 1, search_label: "report" })).body.files).toEqual([]);

    await settled(archive.id);
    const db = await getDb();
    const moved = await db.select().from(archiveVersions).where(eq(archiveVersions.fileId, report.file.id));
    expect(moved).toHaveLength(2);
    expect(await db.select().from(fileVersions).where(eq(fileVersions.fileId, report.file.id))).toEqual([]);
    const stored = moved.find((v) => v.id === report.version.id)!;
    expect(stored.compression).toMatch(/^(gzip|zstd)$/);
    const bytes = await fs.readFile(getArchiveStore().localPath(stored.archiveBlobId!)!);
    if (stored.compression === "gzip") expect([...bytes.subarray(0, 2)]).toEqual([0x1f, 0x8b]);
    expect(stored.storedSize).toBeLessThan(stored.size);
    const settledArchive = (await readArchive(user.token, "file", report.version.id)).body;
    expect(settledArchive).toMatchObject({ state: "archived", stored_size: expect.any(Number) });
    expect(settledArchive.stored_size).toBeLessThan(settledArchive.size);
    // Out of the live quotas.
    expect(await usedByUser(db, user.id)).toBe(usedBefore - 11 - 2600);
    expect(await latestLog("archive", archive.id)).toMatchObject({ type: "ADMLLOG_INSERT" });
  });

  it("stops its link shares", async () => {
    const { user, report } = await scene();
    const share = await createShare(user, { roots: [{ id: report.version.id, entity_type: 1 }], flags: 4 });
    await archiveIt(user.token, "file", report.version.id);
    const db = await getDb();
    expect(await db.select().from(shareRoots).where(eq(shareRoots.shareId, share.id))).toEqual([]);
  });

  it("needs the rights of a move (read, download, edit, delete); a stranger gets nothing; someone else's lock is a 423; no token is a 401", async () => {
    const { user, project, report } = await scene();
    const other = await createTestUser();
    expectError(await archiveIt(other.token, "file", report.version.id), 403);
    for (const missing of ["delete", "download", "read", "edit"] as const) {
      await grantRight(project.id, other.id, allRightsBut(missing));
      expectError(await archiveIt(other.token, "file", report.version.id), 403, "forbidden");
    }
    await lockAs(other, report.file.id);
    await grantRight(project.id, other.id, { read: true, download: true, edit: true, delete: true });
    expectError(await archiveIt(user.token, "file", report.version.id), 423, "locked");
    expect((await archiveIt(other.token, "file", report.version.id)).status).toBe(200);
    expectError(await archiveIt(user.token, "file", report.version.id), 404, "not_found");
    expectError(await archiveIt(user.token, "file", 2_000_000_000), 404, "not_found");
    expectError(await archiveIt(user.token, "file", "x" as unknown as number), 400, "invalid_request");
    await expectAuthRequired(fileArchiveRoute.PUT, { method: "PUT", params: { fileId: String(report.version.id) } });
  });

  it("counts in the archive quota (507)", async () => {
    const { user, report } = await scene();
    const saved = process.env.ARCHIVE_QUOTA;
    process.env.ARCHIVE_QUOTA = "1";
    try {
      const res = await archiveIt(user.token, "file", report.version.id);
      expectError(res, 507, "insufficient_storage");
      expect(res.body.details).toEqual({ quota: "archive" });
      expect((await readFile(user.token, report.version.id)).status).toBe(200);
    } finally {
      if (saved === undefined) delete process.env.ARCHIVE_QUOTA;
      else process.env.ARCHIVE_QUOTA = saved;
    }
  });
});

describe("PUT /folder/(id)/archive", () => {
  it("hides the whole subtree in one step and its drop links stop; versions sharing a blob share one archive blob", async () => {
    const { user, project, sub, report, data, copyId } = await scene();
    const db = await getDb();
    const [link] = await db.insert(ulinks).values({ key: unique("k"), folderId: sub.id, ownerId: user.id }).returning();
    const res = await archiveIt(user.token, "folder", project.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ type: "folder", object_id: project.id, nb_folders: 2, nb_files: 3, state: "pending" });
    const hidden = await db.select({ id: folders.id, deletedAt: folders.deletedAt }).from(folders).where(inArray(folders.id, [project.id, sub.id]));
    expect(hidden.every((f) => f.deletedAt !== null)).toBe(true);
    expectError(await getFolder(user.token, sub.id), 404);
    expect((await db.select().from(ulinks).where(eq(ulinks.id, link.id)))[0].folderId).toBeNull();
    await settled(res.body.id);
    const moved = await db.select().from(archiveVersions).where(eq(archiveVersions.archiveId, res.body.id));
    expect(moved.map((v) => v.id).sort((a, b) => a - b)).toEqual(expect.arrayContaining([report.version.id, data.version.id, copyId]));
    const copyRow = moved.find((v) => v.id === copyId)!;
    expect(copyRow.archiveBlobId).toBe(moved.find((v) => v.id === report.version.id)!.archiveBlobId);
    expectError(await readArchive(user.token, "folder", project.id, { download: "1" }), 400, "invalid_request");
  });

  it("refuses a space's top folder, a folder the caller may not delete, and locks of others", async () => {
    const { user, project, report } = await scene();
    expectError(await archiveIt(user.token, "folder", user.privateRootId!), 403, "forbidden");
    const other = await createTestUser();
    expectError(await archiveIt(other.token, "folder", project.id), 404, "not_found");
    await grantRight(project.id, other.id, allRightsBut("delete"));
    expectError(await archiveIt(other.token, "folder", project.id), 403, "forbidden");
    await lockAs(other, report.file.id);
    expectError(await archiveIt(user.token, "folder", project.id), 423, "locked");
    await expectAuthRequired(folderArchiveRoute.PUT, { method: "PUT", params: { folderId: String(project.id) } });
  });
});

describe("GET /archives and GET, PUT, DELETE /archive/(type)/(id)", () => {
  it("lists one's own archives (administrators: all) and reads, renames, comments one", async () => {
    const { user, report, draftId, project } = await scene();
    const archive = await archiveAndSettle(user.token, "file", report.version.id);
    const folderArchive = await archiveAndSettle(user.token, "folder", project.id);
    const mine = await listArchives(user.token);
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body.objects.map((a: { id: number }) => a.id)).toEqual([folderArchive.id, archive.id]);
    expect(mine.body).toMatchObject({ nb_total_objects: 2, nb_objets: 2 });
    expect((await listArchives(user.token, { type: "folder" })).body.objects.map((a: { id: number }) => a.id)).toEqual([folderArchive.id]);
    const other = await createTestUser();
    expect((await listArchives(other.token)).body.objects).toEqual([]);
    const admin = await createAdmin();
    expect((await listArchives(admin.token, { nb_objects: 1000 })).body.objects.map((a: { id: number }) => a.id)).toEqual(expect.arrayContaining([archive.id, folderArchive.id]));

    // Any version id of the file names its archive.
    const byOld = await readArchive(user.token, "file", draftId);
    expect(byOld.body.id).toBe(archive.id);
    expectError(await readArchive(other.token, "file", report.version.id), 404, "not_found");
    // A file's id asked as a folder's names nothing (unless the folder sequence gave the archived folder that very number).
    if (report.version.id !== project.id) expectError(await readArchive(user.token, "folder", report.version.id), 404, "not_found");

    const updated = await updateArchive(user.token, "file", report.version.id, { name: "report 2025.txt", comment: " kept for the audit " });
    expect(updated.status, updated.text).toBe(200);
    expect(archiveResponse.strict().parse(updated.body)).toMatchObject({ name: "report 2025.txt", comment: "kept for the audit" });
    expectError(await updateArchive(user.token, "file", report.version.id, { name: "a/b" }), 400, "invalid_name");
    expectError(await updateArchive(other.token, "file", report.version.id, { comment: "mine" }), 404, "not_found");
    expect((await updateArchive(admin.token, "file", report.version.id, { comment: "checked" })).status).toBe(200);
    expectError(await listArchives(user.token, { type: "disk" }), 400, "invalid_request");
    await expectAuthRequired(listRoute.GET, { path: "/api/archives" });
    await expectAuthRequired(archiveFileRoute.GET, { params: { fileId: String(report.version.id) } });
    await expectAuthRequired(archiveFolderRoute.PUT, { method: "PUT", params: { folderId: String(project.id) }, body: { comment: "x" } });
  });

  it("downloads an archived file's original bytes, before and after the move", async () => {
    const { user, report } = await scene();
    const res = await archiveIt(user.token, "file", report.version.id);
    const before = await readArchive(user.token, "file", report.version.id, { download: "1" });
    expect(before.status).toBe(200);
    expect(before.text).toBe("final report ".repeat(200));
    await settled(res.body.id);
    const after = await readArchive(user.token, "file", report.version.id, { download: "1" });
    expect(after.status).toBe(200);
    expect(md5(Buffer.from(after.text))).toBe(report.version.md5);
    expect(after.headers.get("content-disposition")).toMatch(/^attachment/);
    expect(after.headers.get("content-security-policy")).toBe("sandbox");
    const other = await createTestUser();
    expectError(await readArchive(other.token, "file", report.version.id, { download: "1" }), 404);
  });

  it("deletes an archive for good: rows, versions and archive blobs", async () => {
    const { user, project, report } = await scene();
    const archive = await archiveAndSettle(user.token, "folder", project.id);
    const db = await getDb();
    const stored = await db.selectDistinct({ id: archiveVersions.archiveBlobId }).from(archiveVersions).where(eq(archiveVersions.archiveId, archive.id));
    const other = await createTestUser();
    expectError(await deleteArchive(other.token, "folder", project.id), 404, "not_found");
    await expectAuthRequired(archiveFolderRoute.DELETE, { method: "DELETE", params: { folderId: String(project.id) } });
    const res = await deleteArchive(user.token, "folder", project.id);
    expect(res.status, res.text).toBe(204);
    expectError(await readArchive(user.token, "folder", project.id), 404);
    expect(await db.select().from(files).where(eq(files.id, report.file.id))).toEqual([]);
    expect(await db.select().from(folders).where(eq(folders.id, project.id))).toEqual([]);
    for (const { id } of stored) expect(await getArchiveStore().stat(id!)).toBeNull();
    expect(await latestLog("archive", archive.id)).toMatchObject({ type: "ADMLLOG_DELETE" });
  });
});

describe("PUT /archive/(type)/(id)/unarchive", () => {
  it("restores a folder to its place, byte-identical, with the same ids", async () => {
    const { user, project, sub, report, data, copyId } = await scene();
    const archive = await archiveAndSettle(user.token, "folder", project.id);
    const res = await unarchive(user.token, "folder", project.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: archive.id, state: "restoring" });
    await restored(archive.id);
    const listing = await getFolder(user.token, project.id, { depth: 1 });
    expect(listing.status, listing.text).toBe(200);
    expect(names(listing.body.content.files)).toEqual(["report.txt"]);
    expect(names(listing.body.content.folders)).toEqual(["Sub"]);
    for (const [id, expected] of [
      [report.version.id, report.version.md5],
      [data.version.id, data.version.md5],
      [copyId, report.version.md5],
    ] as const) {
      const file = await readFile(user.token, id);
      expect(file.status, file.text).toBe(200);
      expect(file.body.hash).toBe(expected);
    }
    const db = await getDb();
    expect(await db.select().from(archiveVersions).where(eq(archiveVersions.archiveId, archive.id))).toEqual([]);
    expect((await db.select().from(files).where(eq(files.id, report.file.id)))[0]).toMatchObject({ deletedAt: null, currentVersionId: report.version.id });
    const versions = await db.select().from(fileVersions).where(eq(fileVersions.fileId, report.file.id));
    expect(versions).toHaveLength(2);
    expect((await getFolder(user.token, sub.id)).status).toBe(200);
  });

  it("restores into a chosen folder, with a numbered name on a clash", async () => {
    const { user, report } = await scene();
    const dest = await createFolder(user, user.privateRootId!, unique("Dest "));
    await uploadText(user, dest.id, "report.txt", "someone else's report");
    const archive = await archiveAndSettle(user.token, "file", report.version.id);
    const res = await unarchive(user.token, "file", report.version.id, { parent_id: dest.id });
    expect(res.status, res.text).toBe(200);
    await restored(archive.id);
    expect(names((await getFolder(user.token, dest.id)).body.content.files).sort()).toEqual(["report (2).txt", "report.txt"]);
    const back = await readFile(user.token, report.version.id);
    expect(back.body).toMatchObject({ name: "report (2).txt", parent_id: dest.id, hash: report.version.md5 });
  });

  it("goes to the owner's private space when its folder is gone, under the name it was given", async () => {
    const { user, project, report } = await scene();
    const archive = await archiveAndSettle(user.token, "file", report.version.id);
    await updateArchive(user.token, "file", report.version.id, { name: "renamed.txt" });
    await trashFolder(project, user);
    expect((await unarchive(user.token, "file", report.version.id)).status).toBe(200);
    await restored(archive.id);
    expect((await readFile(user.token, report.version.id)).body).toMatchObject({ name: "renamed.txt", parent_id: user.privateRootId });
  });

  it("refuses while pending, without the write right where it goes, and to others", async () => {
    const { user, project, report } = await scene();
    const res = await archiveIt(user.token, "file", report.version.id);
    expectError(await unarchive(user.token, "file", report.version.id), 409, "conflict");
    await settled(res.body.id);
    const other = await createTestUser();
    expectError(await unarchive(other.token, "file", report.version.id), 404, "not_found");
    expectError(await unarchive(user.token, "file", report.version.id, { parent_id: other.privateRootId }), 404, "not_found");
    await grantRight(other.privateRootId!, user.id, allRightsBut("write"));
    expectError(await unarchive(user.token, "file", report.version.id, { parent_id: other.privateRootId }), 403, "forbidden");
    expectError(await unarchive(user.token, "file", report.version.id, { parent_id: "abc" }), 400, "invalid_request");
    await expectAuthRequired(unarchiveFileRoute.PUT, { method: "PUT", params: { fileId: String(report.version.id) } });
    await expectAuthRequired(unarchiveFolderRoute.PUT, { method: "PUT", params: { folderId: String(project.id) } });
    // An administrator may restore it, to its place.
    const admin = await createAdmin();
    expect((await unarchive(admin.token, "file", report.version.id)).status).toBe(200);
    expectError(await unarchive(user.token, "file", report.version.id), 409, "conflict");
    expectError(await deleteArchive(user.token, "file", report.version.id), 409, "conflict");
    await restored(res.body.id);
    const db = await getDb();
    expect((await db.select().from(files).where(and(eq(files.id, report.file.id))))[0].deletedAt).toBeNull();
  });
});

describe("archives outlive the folder they came from", () => {
  it("a folder deleted for good keeps what was archived from it; it comes back to the owner's private space", async () => {
    const { user, project, sub, report, data } = await scene();
    const fileArchive = await archiveAndSettle(user.token, "file", report.version.id);
    const folderArchive = await archiveAndSettle(user.token, "folder", sub.id);
    const gone = await call((await import("@/app/api/folder/[folderId]/route")).DELETE, { method: "DELETE", token: user.token, params: { folderId: String(project.id) }, query: { trash: "0" } });
    expect(gone.status, gone.text).toBe(204);
    expectError(await getFolder(user.token, project.id), 404);
    expect((await unarchive(user.token, "file", report.version.id)).status).toBe(200);
    expect((await unarchive(user.token, "folder", sub.id)).status).toBe(200);
    await restored(fileArchive.id);
    await restored(folderArchive.id);
    expect((await readFile(user.token, report.version.id)).body).toMatchObject({ parent_id: user.privateRootId, hash: report.version.md5 });
    const back = await getFolder(user.token, sub.id, { full: "1" });
    expect(back.body).toMatchObject({ parent_id: user.privateRootId, path: `/${[...(await getDb().then((db) => db.select().from(folders).where(eq(folders.id, user.privateRootId!))))[0].path, user.privateRootId].join("/")}` });
    expect((await readFile(user.token, data.version.id)).body.hash).toBe(data.version.md5);
  });
});

describe("archives outlive the trash", () => {
  it("emptying the trash that holds an archived file's folder keeps the file archived", async () => {
    const { user, project, report } = await scene();
    const archive = await archiveAndSettle(user.token, "file", report.version.id);
    const trashId = await trashFolder(project, user);
    const emptied = await call((await import("@/app/api/trash/[trashId]/route")).DELETE, { method: "DELETE", token: user.token, params: { trashId: String(trashId) } });
    expect(emptied.status, emptied.text).toBe(204);
    expect((await unarchive(user.token, "file", report.version.id)).status).toBe(200);
    await restored(archive.id);
    expect((await readFile(user.token, report.version.id)).body).toMatchObject({ parent_id: user.privateRootId, hash: report.version.md5 });
  });
});

describe("the cold tier after a crash", () => {
  it("loses half-written and unrecorded blobs once they are an hour old, never a recorded one", async () => {
    const { user, report } = await scene();
    const archive = await archiveAndSettle(user.token, "file", report.version.id);
    const db = await getDb();
    const [kept] = await db.select().from(archiveVersions).where(eq(archiveVersions.archiveId, archive.id));
    const store = getArchiveStore();
    const orphan = await store.put(Readable.from([Buffer.from("written, never recorded")]));
    const young = await store.put(Readable.from([Buffer.from("a move under way")]));
    const part = path.join(store.tempDir, `${unique("crash")}.part`);
    await fs.writeFile(part, "half");
    const old = new Date(Date.now() - 2 * 3600_000);
    for (const file of [store.localPath(orphan.id)!, store.localPath(kept.archiveBlobId!)!, part]) await fs.utimes(file, old, old);
    expect(await sweepArchiveStore(db)).toBeGreaterThanOrEqual(2);
    expect(await store.stat(orphan.id)).toBeNull();
    expect(await store.stat(young.id)).not.toBeNull();
    expect(await store.stat(kept.archiveBlobId!)).not.toBeNull();
    await expect(fs.stat(part)).rejects.toThrow();
    await store.delete(young.id);
  });
});
