import { and, desc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as lockRoute from "@/app/api/lock/[fileId]/route";
import * as locksRoute from "@/app/api/locks/route";
import * as folderLocksRoute from "@/app/api/locks/[folderId]/route";
import { getDb } from "@/db";
import { events, fileLocks } from "@/db/schema";
import { lockResponse } from "@/lib/contracts/locks";
import { lockFile } from "@/lib/server/locks/lock-file";
import { createAdmin, createTestUser } from "../../helpers/factories";
import { createFileScene, ctxIn, inRolledBackTransaction, latestLog, lockAs, OPEN_TIMEOUT, openDatabase, setConfigIn } from "../../helpers/file-ops-factories";
import { allRightsBut, createFolder, grantRight, uploadText } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";

const params = (id: number) => ({ fileId: String(id) });
const readLock = (token: string, id: number) => call(lockRoute.GET, { path: `/api/lock/${id}`, token, params: params(id) });
const lock = (token: string, id: number) => call(lockRoute.PUT, { method: "PUT", token, params: params(id) });
const unlock = (token: string, id: number, query: Record<string, string> = {}) => call(lockRoute.DELETE, { method: "DELETE", token, params: params(id), query });

async function lockRow(fileId: number) {
  const db = await getDb();
  const [row] = await db.select().from(fileLocks).where(eq(fileLocks.fileId, fileId));
  return row;
}

beforeAll(openDatabase, OPEN_TIMEOUT);

describe("GET /api/lock/(fileId)", () => {
  it("answers locked false for a free file, and the holder for a locked one", async () => {
    const { owner, other, folder, file, version } = await createFileScene();
    const free = await readLock(owner.token, version.id);
    expect(free.status, free.text).toBe(200);
    expect(lockResponse.strict().parse(free.body)).toEqual({ file: version.id, file_guid: file.guid, locked: false, writeable: true, readable: true });
    await grantRight(folder.id, other.id, { browse: true });
    await lockAs(other, file.id);
    const seen = await readLock(owner.token, version.id);
    expect(seen.body).toMatchObject({ locked: true, writeable: false, readable: true, owner_id: String(other.id) });
    expect(typeof seen.body.date).toBe("string");
    expect((await readLock(other.token, version.id)).body).toMatchObject({ locked: true, writeable: true });
  });

  it("answers 403 to another user, 404 for an unknown file, and requires a token", async () => {
    const { owner, other, version } = await createFileScene();
    expectError(await readLock(other.token, version.id), 403);
    expectError(await readLock(owner.token, 2_000_000_000), 404, "not_found");
    await expectAuthRequired(lockRoute.GET, { params: params(version.id) });
  });
});

describe("PUT /api/lock/(fileId)", () => {
  it("locks the file for the caller, records a lock event and a log, and answers the same Lock again", async () => {
    const { owner, file, version } = await createFileScene();
    const res = await lock(owner.token, version.id);
    expect(res.status, res.text).toBe(200);
    expect(lockResponse.parse(res.body)).toMatchObject({ file: version.id, file_guid: file.guid, locked: true, writeable: true, owner_id: String(owner.id) });
    expect(await lockRow(file.id)).toMatchObject({ ownerId: owner.id });
    const db = await getDb();
    const [event] = await db.select().from(events).where(and(eq(events.targetType, "file"), eq(events.targetId, file.id), eq(events.type, 6))).orderBy(desc(events.id));
    expect(event).toMatchObject({ actorId: owner.id, versionId: version.id });
    expect(event.data).toMatchObject({ locked: true, owner_id: String(owner.id) });
    expect(await latestLog("file", version.id, "ADMLLOG_UPDATE")).toMatchObject({ userId: owner.id });
    const again = await lock(owner.token, version.id);
    expect(again.status).toBe(200);
    expect(again.body.date).toBe(res.body.date);
  });

  it("answers 423 when someone else holds the lock, 403 without edit, 403 to another user", async () => {
    const { owner, other, folder, file, version } = await createFileScene();
    expectError(await lock(other.token, version.id), 403);
    await grantRight(folder.id, other.id, allRightsBut("edit"));
    expectError(await lock(other.token, version.id), 403, "forbidden");
    await grantRight(folder.id, other.id, { edit: true });
    expect((await lock(owner.token, version.id)).status).toBe(200);
    expectError(await lock(other.token, version.id), 423, "locked");
    expect(await lockRow(file.id)).toMatchObject({ ownerId: owner.id });
  });

  it("refuses locking when the platform's lock feature is off (403)", async () => {
    const { owner, file, version } = await createFileScene();
    await inRolledBackTransaction(async (tx) => {
      await setConfigIn(tx, { features: { lock: false } });
      await expect(lockFile(ctxIn(tx, owner), version.id)).rejects.toMatchObject({ code: "forbidden", status: 403 });
    });
    expect(await lockRow(file.id)).toBeUndefined();
  });

  it("requires a valid token", async () => {
    const { version } = await createFileScene();
    await expectAuthRequired(lockRoute.PUT, { method: "PUT", params: params(version.id) });
  });
});

describe("DELETE /api/lock/(fileId)", () => {
  it("lets the holder unlock (204), and is a no-op on a free file", async () => {
    const { owner, file, version } = await createFileScene();
    await lockAs(owner, file.id);
    const res = await unlock(owner.token, version.id, { all: "1" });
    expect(res.status, res.text).toBe(204);
    expect(await lockRow(file.id)).toBeUndefined();
    expect((await unlock(owner.token, version.id)).status).toBe(204);
  });

  it("lets the owner of the space and administrators unlock another's lock; refuses other collaborators (403)", async () => {
    const { owner, other, folder, file, version } = await createFileScene();
    const third = await createTestUser();
    await grantRight(folder.id, other.id, allRightsBut());
    await grantRight(folder.id, third.id, allRightsBut());
    await lockAs(other, file.id);
    expectError(await unlock(third.token, version.id), 403, "forbidden");
    expect(await lockRow(file.id)).toBeDefined();
    expect((await unlock(owner.token, version.id)).status).toBe(204);
    await lockAs(other, file.id);
    expect((await unlock((await createAdmin()).token, version.id)).status).toBe(204);
    expect(await lockRow(file.id)).toBeUndefined();
  });

  it("answers 403 to a user who cannot browse, 404 for an unknown file, and requires a token", async () => {
    const { owner, version, file } = await createFileScene();
    await lockAs(owner, file.id);
    expectError(await unlock((await createTestUser()).token, version.id), 403);
    expectError(await unlock(owner.token, 2_000_000_000), 404, "not_found");
    await expectAuthRequired(lockRoute.DELETE, { method: "DELETE", params: params(version.id) });
  });
});

describe("GET /api/locks and /api/locks/(folderId)", () => {
  it("lists the locks below a folder that the caller may read, and the caller's own locks", async () => {
    const owner = await createTestUser();
    const reader = await createTestUser();
    const top = await createFolder(owner, owner.privateRootId!, "top");
    const sub = await createFolder(owner, top.id, "sub");
    const a = await uploadText(owner, top.id, "a.txt", "a");
    const b = await uploadText(owner, sub.id, "b.txt", "b");
    await uploadText(owner, sub.id, "free.txt", "c");
    await lockAs(owner, a.file.id);
    await lockAs(reader, b.file.id);
    await grantRight(sub.id, reader.id, { read: true });

    const all = await call(folderLocksRoute.GET, { token: owner.token, params: { folderId: String(top.id) } });
    expect(all.status, all.text).toBe(200);
    expect(all.body).toMatchObject({ offset_start: 0, nb_total_objects: 2 });
    expect(all.body.objects.map((l: { file: number }) => l.file).sort()).toEqual([a.version.id, b.version.id].sort());
    for (const l of all.body.objects) lockResponse.parse(l);

    const page = await call(folderLocksRoute.GET, { token: owner.token, params: { folderId: String(top.id) }, query: { nb_objects: 1, offset_start: 1 } });
    expect(page.body).toMatchObject({ nb_objects: 1, nb_total_objects: 2 });

    const below = await call(folderLocksRoute.GET, { token: reader.token, params: { folderId: String(sub.id) } });
    expect(below.body.objects).toEqual([expect.objectContaining({ file: b.version.id, writeable: true })]);
    expectError(await call(folderLocksRoute.GET, { token: reader.token, params: { folderId: String(top.id) } }), 404, "not_found");

    const mine = await call(locksRoute.GET, { token: reader.token });
    expect(mine.body.objects.map((l: { file: number }) => l.file)).toEqual([b.version.id]);
  });

  it("requires a valid token", async () => {
    await expectAuthRequired(locksRoute.GET, {});
    await expectAuthRequired(folderLocksRoute.GET, { params: { folderId: "1" } });
  });
});
