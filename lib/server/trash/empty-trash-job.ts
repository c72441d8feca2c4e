import { and, eq, inArray, isNotNull, lte, sql, type SQL } from "drizzle-orm";
import { rows, type Db } from "@/db";
import { files, trashItems, trashPurges } from "@/db/schema";
import { idArray } from "../folders/id-array";
import { enqueueJob } from "../jobs/enqueue";
import { purgeTrashItem, scheduleBlobCollection } from "./purge";

/** Items purged per transaction: whole files go in one statement, so a batch takes well under a second. */
const BATCH = 500;
/** Files of trashed folder trees deleted per statement (a deleted user's private space may hold a million). */
const FILE_BATCH = 2000;
/** A run stops after this long and queues its continuation, so one job never holds the worker. */
const RUN_MS = 20_000;

/**
 * Job "trash.empty": purges the items of the trashes being emptied (trash_purges) in bounded
 * batches, each in its own transaction (rows taken with SKIP LOCKED), then forgets each emptying
 * whose items are all gone. Queues itself again when a run takes longer than RUN_MS.
 */
export async function emptyTrashJob(db: Db): Promise<void> {
  const started = Date.now();
  for (const purge of await db.select().from(trashPurges).orderBy(trashPurges.id)) {
    const covered = and(purge.ownerId === null ? undefined : eq(trashItems.ownerId, purge.ownerId), lte(trashItems.id, purge.upToId));
    for (;;) {
      if (Date.now() - started > RUN_MS) {
        await enqueueJob(db, "trash.empty", {}, { dedupeKey: "trash.empty" });
        return;
      }
      if ((await purgeFolderFiles(db, covered)) > 0) continue;
      if ((await purgeBatch(db, covered)) === 0) break;
    }
    // Items locked by someone else (a restore under way) were skipped: retry later, keep the emptying.
    if ((await db.select({ id: trashItems.id }).from(trashItems).where(covered).limit(1)).length > 0) {
      await enqueueJob(db, "trash.empty", {}, { dedupeKey: "trash.empty", runAt: new Date(Date.now() + 5000) });
      return;
    }
    await db.delete(trashPurges).where(eq(trashPurges.id, purge.id));
  }
  await scheduleBlobCollection(db);
}

/** Deletes up to FILE_BATCH files of the covered folder items (by files.trash_id, indexed). */
async function purgeFolderFiles(db: Db, covered: SQL | undefined): Promise<number> {
  const folderItems = await db.select({ id: trashItems.id }).from(trashItems).where(and(covered, isNotNull(trashItems.folderId)));
  if (folderItems.length === 0) return 0;
  const ids = idArray(folderItems.map((i) => i.id));
  const deleted = await db.execute(sql`
    DELETE FROM files WHERE id IN (SELECT id FROM files WHERE trash_id = ANY(${ids}) LIMIT ${FILE_BATCH}) RETURNING id`);
  return rows(deleted).length;
}

/** Purges up to BATCH covered items in one transaction; returns how many. */
async function purgeBatch(db: Db, covered: SQL | undefined): Promise<number> {
  return db.transaction(async (tx) => {
    const items = await tx.select().from(trashItems).where(covered).limit(BATCH).for("update", { skipLocked: true });
    const wholeFiles = items.filter((i) => i.folderId === null && i.fileId !== null && !i.versionIds?.length);
    if (wholeFiles.length) {
      await tx.delete(files).where(and(inArray(files.id, wholeFiles.map((i) => i.fileId!)), isNotNull(files.trashId)));
      await tx.delete(trashItems).where(inArray(trashItems.id, wholeFiles.map((i) => i.id)));
    }
    for (const item of items) if (!wholeFiles.includes(item)) await purgeTrashItem(tx, item);
    return items.length;
  });
}
