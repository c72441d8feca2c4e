import fs from "node:fs/promises";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as fileRoute from "@/app/api/file/[fileId]/route";
import { getDb } from "@/db";
import { archives, files, folders, trashItems } from "@/db/schema";
import { createTestUser, unique } from "../../helpers/factories";
import { OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { allRightsBut, createFolder, grantRight, uploadText } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { putFolder } from "../folders/fixtures";
import { archiveIt, listArchives, readArchive, settled, unarchive } from "./archive-helpers";

// Issue 25, finding 2: with browse, read and delete (no download) on someone else's folder,
// archiving made an archive of the caller's, whose download gave the bytes, and the owner lost
// the file. Archiving is taking an object out of its folder (the rights of a move), and the
// archive stays the owner's.

beforeAll(openDatabase, OPEN_TIMEOUT);

const readFile = (token: string, id: number) => call(fileRoute.GET, { token, params: { fileId: String(id) } });
const archiveIds = async (token: string) => {
  const res = await listArchives(token, { nb_objects: 1000 });
  expect(res.status, res.text).toBe(200);
  return res.body.objects.map((a: { id: number }) => a.id);
};

/** Alice's folder with a secret file and a subfolder; Mallory may browse, read and delete there, not download. */
async function scene() {
  const alice = await createTestUser();
  const mallory = await createTestUser();
  const folder = await createFolder(alice, alice.privateRootId!, unique("Accounts "));
  const secret = await uploadText(alice, folder.id, "salaries.csv", "alice;100000");
  const sub = await createFolder(alice, folder.id, "Payroll");
  await uploadText(alice, sub.id, "march.csv", "bob;3000");
  await grantRight(folder.id, mallory.id, { read: true, delete: true });
  return { alice, mallory, folder, secret, sub };
}

describe("archiving someone else's file (issue 25)", () => {
  it("the delete right alone neither archives it nor yields its bytes; the file stays live and its owner's", async () => {
    const { alice, mallory, secret } = await scene();
    expectError(await archiveIt(mallory.token, "file", secret.version.id), 403, "forbidden");
    expectError(await readArchive(mallory.token, "file", secret.version.id, { download: "1" }), 404, "not_found");
    expect((await readFile(alice.token, secret.version.id)).status).toBe(200);
    const db = await getDb();
    expect(await db.select().from(archives).where(eq(archives.objectId, secret.file.id))).toEqual([]);
  });

  it("with the rights of a move it is archived, but the archive is the owner's: listed, read and downloaded by them alone", async () => {
    const { alice, mallory, folder, secret } = await scene();
    await grantRight(folder.id, mallory.id, allRightsBut("share"));
    const res = await archiveIt(mallory.token, "file", secret.version.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body.owner_id).toBe(String(alice.id));
    await settled(res.body.id);

    expect(await archiveIds(alice.token)).toContain(res.body.id);
    expect(await archiveIds(mallory.token)).not.toContain(res.body.id);
    expectError(await readArchive(mallory.token, "file", secret.version.id, { download: "1" }), 404, "not_found");
    expectError(await unarchive(mallory.token, "file", secret.version.id), 404, "not_found");
    const bytes = await readArchive(alice.token, "file", secret.version.id, { download: "1" });
    expect(bytes.status).toBe(200);
    expect(bytes.text).toBe("alice;100000");
  });
});

describe("archiving someone else's folder (issue 25)", () => {
  it("the delete right alone does not archive it; nor do the parent's rights when a folder below withholds download", async () => {
    const { alice, mallory, folder, sub } = await scene();
    expectError(await archiveIt(mallory.token, "folder", sub.id), 403, "forbidden");
    await grantRight(folder.id, mallory.id, allRightsBut("share"));
    await grantRight(sub.id, mallory.id, allRightsBut("download"));
    expectError(await archiveIt(mallory.token, "folder", sub.id), 403, "forbidden");
    const db = await getDb();
    const [row] = await db.select().from(folders).where(eq(folders.id, sub.id));
    expect(row.deletedAt).toBeNull();

    await grantRight(sub.id, mallory.id, allRightsBut("share"));
    const res = await archiveIt(mallory.token, "folder", sub.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body.owner_id).toBe(String(alice.id));
    expect(await archiveIds(alice.token)).toContain(res.body.id);
    expect(await archiveIds(mallory.token)).not.toContain(res.body.id);
    expectError(await readArchive(mallory.token, "folder", sub.id), 404, "not_found");
  });
});

describe("moving someone else's folder (issue 25)", () => {
  it("the delete right alone does not take a folder into one's own space", async () => {
    const { alice, mallory, sub } = await scene();
    const own = await createFolder(mallory, mallory.privateRootId!, "Mine");
    expectError(await putFolder(mallory.token, sub.id, { parent_id: own.id }), 403, "forbidden");
    const db = await getDb();
    const [row] = await db.select().from(folders).where(eq(folders.id, sub.id));
    expect(row.ownerId).toBe(alice.id);
    const [file] = await db.select().from(files).where(eq(files.folderId, sub.id));
    expect(file.deletedAt).toBeNull();
  });
});

describe("rows made before the fix (migration owners_keep_archives_and_trash)", () => {
  it("gives archives and trash items of someone else's content back to its owner", async () => {
    const { alice, mallory, folder, secret } = await scene();
    const other = await uploadText(alice, folder.id, "other.csv", "x");
    await grantRight(folder.id, mallory.id, allRightsBut("share"));
    const archived = await archiveIt(mallory.token, "file", secret.version.id);
    const trashed = await call(fileRoute.DELETE, { method: "DELETE", token: mallory.token, params: { fileId: String(other.version.id) } });
    expect(trashed.status, trashed.text).toBe(200);
    const db = await getDb();
    // As the code before the fix left them: the maker's.
    await db.update(archives).set({ ownerId: mallory.id }).where(eq(archives.id, archived.body.id));
    await db.update(trashItems).set({ ownerId: mallory.id }).where(eq(trashItems.id, trashed.body.id));

    const dir = path.join(process.cwd(), "db/migrations");
    const file = (await fs.readdir(dir)).find((name) => name.endsWith("_owners_keep_archives_and_trash.sql"))!;
    for (const statement of (await fs.readFile(path.join(dir, file), "utf8")).split("--> statement-breakpoint")) await db.execute(sql.raw(statement));

    expect((await db.select().from(archives).where(eq(archives.id, archived.body.id)))[0].ownerId).toBe(alice.id);
    expect((await db.select().from(trashItems).where(eq(trashItems.id, trashed.body.id)))[0].ownerId).toBe(alice.id);
  });
});
