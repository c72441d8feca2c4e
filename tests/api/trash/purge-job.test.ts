import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, type Db } from "@/db";
import { files, folders, trashItems } from "@/db/schema";
import { readStoredConfig } from "@/lib/server/config/platform-config";
import { handlerFor } from "@/lib/server/jobs/registry";
import { purgeExpiredTrashJob } from "@/lib/server/trash/purge-expired-trash";
import { createFileScene, findTrashItem, inRolledBackTransaction, latestLog, lockAs, OPEN_TIMEOUT, openDatabase, reloadFile, setConfigIn } from "../../helpers/file-ops-factories";
import { uploadText } from "../../helpers/files";
import { trashFile } from "./fixtures";

const DAY = 86_400_000;

async function backdateItem(id: number, days: number) {
  const db = await getDb();
  await db.update(trashItems).set({ deletedAt: new Date(Date.now() - days * DAY) }).where(eq(trashItems.id, id));
}

async function backdateFile(id: number, days: number) {
  const db = await getDb();
  await db.update(files).set({ modifiedAt: new Date(Date.now() - days * DAY) }).where(eq(files.id, id));
}

beforeAll(openDatabase, OPEN_TIMEOUT);

describe("job trash.purge", () => {
  it("is registered", async () => {
    expect(await handlerFor("trash.purge")).toBe(purgeExpiredTrashJob);
  });

  it("purges items older than trash_retention_days (30 by default) and keeps recent ones", async () => {
    const days = (await readStoredConfig(await getDb())).trash_retention_days;
    expect(days).toBeGreaterThan(1);
    const old = await createFileScene();
    const fresh = await createFileScene();
    const oldId = await trashFile(old.owner.token, old.version.id);
    const freshId = await trashFile(fresh.owner.token, fresh.version.id);
    await backdateItem(oldId, days + 1);
    await backdateItem(freshId, days - 1);
    await purgeExpiredTrashJob(await getDb());
    expect(await findTrashItem(oldId)).toBeUndefined();
    expect(await reloadFile(old.file.id)).toBeUndefined();
    expect(await latestLog("trash", oldId, "ADMLLOG_DELETE")).toMatchObject({ userId: null, userName: "system" });
    expect(await findTrashItem(freshId)).toBeDefined();
    await purgeExpiredTrashJob(await getDb());
    expect(await findTrashItem(freshId)).toBeDefined();
  });

  it("never purges with trash_retention_days 0", async () => {
    const { owner, version } = await createFileScene();
    const id = await trashFile(owner.token, version.id);
    await backdateItem(id, 400);
    await inRolledBackTransaction(async (tx) => {
      await setConfigIn(tx, { trash_retention_days: 0 });
      await purgeExpiredTrashJob(tx as unknown as Db);
      expect(await tx.select().from(trashItems).where(eq(trashItems.id, id))).toHaveLength(1);
    });
  });

  it("sends to the trash the files of a folder unchanged for its purge_frequency, except locked ones", async () => {
    const { owner, other, folder, file } = await createFileScene();
    const recent = await uploadText(owner, folder.id, "recent.txt", "r");
    const locked = await uploadText(owner, folder.id, "locked.txt", "l");
    const db = await getDb();
    await db.update(folders).set({ purgeFrequency: 2 }).where(eq(folders.id, folder.id));
    await backdateFile(file.id, 3);
    await backdateFile(locked.file.id, 3);
    await lockAs(other, locked.file.id);
    await purgeExpiredTrashJob(db);
    const purged = await reloadFile(file.id);
    expect(purged.deletedAt).not.toBeNull();
    expect(await findTrashItem(purged.trashId!)).toMatchObject({ ownerId: owner.id, fileId: file.id, originalParentId: folder.id });
    expect((await reloadFile(recent.file.id)).deletedAt).toBeNull();
    expect((await reloadFile(locked.file.id)).deletedAt).toBeNull();
    await purgeExpiredTrashJob(db);
    expect((await reloadFile(file.id)).trashId).toBe(purged.trashId);
  });
});
