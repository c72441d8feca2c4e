import "server-only";
import { and, eq, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { fileVersions, files, folders, trashItems, type TrashItem } from "@/db/schema";
import { enqueueJob } from "../jobs/enqueue";
import { refreshCurrentVersion } from "../files/live-files";

/**
 * Removes a trash item's content for good. Blobs are not deleted here: copies and clones may
 * share them; the blob collector job deletes those no version references any more.
 */
export async function purgeTrashItem(db: DbOrTx, item: TrashItem): Promise<void> {
  if (item.folderId !== null) {
    // With the live files of its folders the job trash.mark has not reached yet.
    await db.delete(files).where(or(eq(files.trashId, item.id), and(isNull(files.deletedAt), inArray(files.folderId, db.select({ id: folders.id }).from(folders).where(eq(folders.trashId, item.id))))));
    await rehomeArchivedFiles(db, sql`f.trash_id = ${item.id}`);
    // Children first is not needed: folders reference parents by id only, without a foreign key.
    await db.delete(folders).where(eq(folders.trashId, item.id));
  } else if (item.fileId !== null && item.versionIds?.length) {
    await db.delete(fileVersions).where(and(eq(fileVersions.fileId, item.fileId), inArray(fileVersions.id, item.versionIds)));
    await refreshCurrentVersion(db, item.fileId);
  } else if (item.fileId !== null) {
    await db.delete(files).where(eq(files.id, item.fileId));
  }
  await db.delete(trashItems).where(eq(trashItems.id, item.id));
  await scheduleBlobCollection(db);
}

/**
 * Deletes a live folder and its subtree for good (delete with trash=0). What was archived from it
 * stays in its archive (archive_items): it comes back, to its owner's private space, on restore.
 */
export async function purgeFolderTree(db: DbOrTx, folderId: number): Promise<void> {
  const notArchived = (type: "file" | "folder", id: typeof files.id | typeof folders.id) =>
    sql`${id} NOT IN (SELECT item_id FROM archive_items WHERE item_type = ${type})`;
  const subtree = sql`(${folders.id} = ${folderId} OR ${folders.path} @> ARRAY[${folderId}::int]) AND ${notArchived("folder", folders.id)}`;
  const subtreeFiles = db
    .select({ id: files.id })
    .from(files)
    .where(and(inArray(files.folderId, db.select({ id: folders.id }).from(folders).where(subtree)), notArchived("file", files.id)));
  await db.delete(trashItems).where(inArray(trashItems.fileId, subtreeFiles));
  await db.delete(files).where(inArray(files.id, subtreeFiles));
  await db.delete(trashItems).where(inArray(trashItems.folderId, db.select({ id: folders.id }).from(folders).where(subtree)));
  await rehomeArchivedFiles(db, sql`(f.id = ${folderId} OR f.path @> ARRAY[${folderId}::int]) AND f.id NOT IN (SELECT item_id FROM archive_items WHERE item_type = 'folder')`);
  await db.delete(folders).where(subtree);
  await scheduleBlobCollection(db);
}

/**
 * An archived file of a folder deleted for good waits in its archive's owner's private space
 * (where it would be restored anyway): its row must not hold the folder back (files.folder_id).
 * `folderCondition` picks the folders going, on alias `f`.
 */
async function rehomeArchivedFiles(db: DbOrTx, folderCondition: SQL) {
  await db.execute(sql`
    UPDATE files x SET folder_id = (
      SELECT u.private_root_id FROM archive_items i JOIN archives a ON a.id = i.archive_id JOIN users u ON u.id = a.owner_id
      WHERE i.item_type = 'file' AND i.item_id = x.id LIMIT 1)
    WHERE x.folder_id IN (SELECT f.id FROM folders f WHERE ${folderCondition})
      AND x.id IN (SELECT item_id FROM archive_items WHERE item_type = 'file')`);
}

/** Deletes versions (or a whole file when `versionIds` is null) for good. */
export async function purgeFileContent(db: DbOrTx, fileId: number, versionIds: number[] | null): Promise<void> {
  if (versionIds === null) {
    await db.delete(files).where(eq(files.id, fileId));
  } else {
    await db.delete(fileVersions).where(inArray(fileVersions.id, versionIds));
    await refreshCurrentVersion(db, fileId);
  }
  await scheduleBlobCollection(db);
}

/** One pending collection at a time, a little later, so a burst of deletions costs one pass. */
export async function scheduleBlobCollection(db: DbOrTx) {
  await enqueueJob(db, "blobs.collect", {}, { dedupeKey: "blobs.collect", runAt: new Date(Date.now() + 10_000) });
}
