import "server-only";
import { and, asc, eq, gt, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { fileLocks, files, folders, trashItems } from "@/db/schema";
import { writeLog } from "../audit/write-log";
import { readStoredConfig } from "../config/platform-config";
import { purgeFileContent, purgeTrashItem } from "./purge";
import { sendFileToTrash } from "./send-to-trash";

const BATCH = 100;
/** One run does at most this much; the next periodic run takes the rest. */
const MAX_PER_RUN = 5000;
const DAY_MS = 86_400_000;
const SYSTEM = { actor: null, request: { ip: "system", userAgent: null } };
const systemUser = { id: null, name: "system" };

/**
 * Job "trash.purge", enqueued periodically. Purges trash items older than the platform's
 * trash_retention_days (0 = never), and sends to the trash the files of folders whose
 * purge_frequency (days) has passed since their last change; a folder's frequency covers its own
 * files (update folder `recursive` copies it to subfolders). Locked files are left alone. Each
 * item is handled in its own transaction and re-checked there, so runs may overlap or repeat.
 */
export async function purgeExpiredTrashJob(db: Db): Promise<void> {
  const config = await readStoredConfig(db);
  if (config.trash_retention_days > 0) await purgeOldItems(db, new Date(Date.now() - config.trash_retention_days * DAY_MS));
  await removeStaleFiles(db, config.features.trash);
}

async function purgeOldItems(db: Db, cutoff: Date) {
  for (let done = 0, lastId = 0; done < MAX_PER_RUN; ) {
    const due = await db
      .select({ id: trashItems.id })
      .from(trashItems)
      .where(and(lt(trashItems.deletedAt, cutoff), gt(trashItems.id, lastId)))
      .orderBy(asc(trashItems.id))
      .limit(BATCH);
    for (const { id } of due) {
      await db.transaction(async (tx) => {
        const [item] = await tx.select().from(trashItems).where(and(eq(trashItems.id, id), lt(trashItems.deletedAt, cutoff))).for("update", { skipLocked: true });
        if (!item) return;
        await purgeTrashItem(tx, item);
        await writeLog(tx, SYSTEM, { type: "ADMLLOG_DELETE", message: `Purged ${item.name || "an item"} from the trash after the retention period`, objectType: "trash", objectId: item.id, object: item.name, user: systemUser });
      });
    }
    done += due.length;
    if (due.length < BATCH) return;
    lastId = due[due.length - 1].id;
  }
}

async function removeStaleFiles(db: Db, useTrash: boolean) {
  const stale = and(
    isNull(files.deletedAt),
    gt(folders.purgeFrequency, 0),
    isNull(folders.deletedAt),
    sql`${files.modifiedAt} < now() - make_interval(days => ${folders.purgeFrequency})`,
    sql`NOT EXISTS (SELECT 1 FROM ${fileLocks} WHERE ${fileLocks.fileId} = ${files.id})`,
  );
  for (let done = 0, lastId = 0; done < MAX_PER_RUN; ) {
    const due = await db
      .select({ id: files.id })
      .from(files)
      .innerJoin(folders, eq(folders.id, files.folderId))
      .where(and(stale, gt(files.id, lastId)))
      .orderBy(asc(files.id))
      .limit(BATCH);
    for (const { id } of due) {
      await db.transaction(async (tx) => {
        const [row] = await tx.select({ file: files, folder: folders }).from(files).innerJoin(folders, eq(folders.id, files.folderId)).where(and(eq(files.id, id), stale)).for("update", { of: files, skipLocked: true });
        if (!row) return;
        const { file, folder } = row;
        if (useTrash) await sendFileToTrash(tx, file, folder, { deletedBy: file.ownerId });
        else await purgeFileContent(tx, file.id, null);
        const how = useTrash ? "sent to the trash" : "deleted";
        await writeLog(tx, SYSTEM, { type: "ADMLLOG_DELETE", message: `${file.name} ${how}: unchanged for ${folder.purgeFrequency} days`, objectType: "file", objectId: file.currentVersionId ?? file.id, object: file.name, user: systemUser });
      });
    }
    done += due.length;
    if (due.length < BATCH) return;
    lastId = due[due.length - 1].id;
  }
}
