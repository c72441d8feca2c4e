import { and, inArray, sql } from "drizzle-orm";
import { rows, type Db } from "@/db";
import { files, trashItems } from "@/db/schema";
import { enqueueJob } from "../jobs/enqueue";
import { purgeTrashItem, scheduleBlobCollection } from "./purge";
import { beingPurged } from "./purging";

/** Items purged per transaction: whole files go in one statement, so a batch takes well under a second. */
const BATCH = 500;
const RUN_MS = 20_000;
const FILE_BATCH = 5000;

/**
 * Job "trash.empty": purges the items of the trashes being emptied (trash_purges) in bounded
 * batches, each in its own transaction (rows taken with SKIP LOCKED), then forgets the emptyings
 * whose items are all gone. Queues itself again when a run takes longer than RUN_MS.
 */
export async function emptyTrashJob(db: Db): Promise<void> {
  const started = Date.now();
  while (Date.now() - started < RUN_MS) {
    // The files of trashed folder trees first, FILE_BATCH per statement (a deleted user's private
    // space may hold a million), so purging the folder item itself is short.
    const folderFiles = await db.execute(sql`
      DELETE FROM files WHERE id IN (
        SELECT f.id FROM files f JOIN trash_items ON trash_items.id = f.trash_id
        WHERE trash_items.folder_id IS NOT NULL AND ${beingPurged} LIMIT ${FILE_BATCH})
      RETURNING id`);
    if (rows(folderFiles).length > 0) continue;
    const purged = await db.transaction(async (tx) => {
      const items = await tx.select().from(trashItems).where(beingPurged).orderBy(trashItems.id).limit(BATCH).for("update", { skipLocked: true });
      const wholeFiles = items.filter((i) => i.folderId === null && i.fileId !== null && !i.versionIds?.length);
      if (wholeFiles.length) await tx.delete(files).where(and(inArray(files.id, wholeFiles.map((i) => i.fileId!)), sql`${files.trashId} IS NOT NULL`));
      if (wholeFiles.length) await tx.delete(trashItems).where(inArray(trashItems.id, wholeFiles.map((i) => i.id)));
      for (const item of items) if (!wholeFiles.includes(item)) await purgeTrashItem(tx, item);
      return items.length;
    });
    if (purged === 0) {
      await db.execute(sql`
        DELETE FROM trash_purges p WHERE NOT EXISTS (
          SELECT 1 FROM trash_items t WHERE (p.owner_id IS NULL OR t.owner_id = p.owner_id) AND t.id <= p.up_to_id)`);
      await scheduleBlobCollection(db);
      return;
    }
  }
  await enqueueJob(db, "trash.empty", {}, { dedupeKey: "trash.empty" });
}

