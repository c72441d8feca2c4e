import "server-only";
import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { rows, type Db, type DbOrTx } from "@/db";
import { archives, archiveVersions, blobs, fileVersions, files, folders, users, type Archive, type ArchiveVersion, type Folder } from "@/db/schema";
import { getArchiveStore } from "@/lib/server/blobs/stores";
import { writeLog } from "../audit/write-log";
import { firstFreeName, sameName } from "../files/names";
import { moveSubtree } from "../folders/move-folder";
import { enqueueDerivatives } from "../previews/enqueue-derivatives";
import { restoreToLive } from "./archive-bytes";

const BATCH = 20;

/**
 * Job "archives.restore" {archiveId}: writes each archived version's bytes back to the live store
 * (checked against its MD5), recording where each went, while the tree stays hidden. Then, in
 * one transaction, the versions return to file_versions with their ids, the files and folders
 * come back under the destination (a numbered name if its own is taken), their thumbnails and
 * texts are queued again, and the archive goes. A crash before that transaction leaves the
 * archive `restoring` and the job, run again, goes on; live blobs written before it are either
 * used or collected.
 */
export async function restoreArchiveJob(db: Db, payload: Record<string, unknown>): Promise<void> {
  const archiveId = Number(payload.archiveId);
  for (;;) {
    const [archive] = await db.select().from(archives).where(eq(archives.id, archiveId));
    if (!archive || archive.state !== "restoring") return;
    const batch = await db
      .select()
      .from(archiveVersions)
      .where(and(eq(archiveVersions.archiveId, archiveId), isNull(archiveVersions.restoredBlobId), isNotNull(archiveVersions.archiveBlobId)))
      .orderBy(archiveVersions.id)
      .limit(BATCH);
    if (batch.length === 0) return finishRestore(db, archive);
    for (const version of batch) await restoreVersion(db, version);
  }
}

async function restoreVersion(db: Db, version: ArchiveVersion) {
  // Versions sharing an archive blob share the restored blob too.
  const [same] = await db
    .select({ id: archiveVersions.restoredBlobId })
    .from(archiveVersions)
    .where(and(eq(archiveVersions.archiveId, version.archiveId), eq(archiveVersions.archiveBlobId, version.archiveBlobId!), isNotNull(archiveVersions.restoredBlobId)))
    .limit(1);
  let blobId = same?.id ?? null;
  if (!blobId) {
    const live = await restoreToLive(version.archiveBlobId!, version.compression, { md5: version.md5, size: version.size });
    await db.insert(blobs).values({ id: live.id, size: live.size, md5: live.md5 }).onConflictDoNothing();
    blobId = live.id;
  }
  await db.update(archiveVersions).set({ restoredBlobId: blobId }).where(eq(archiveVersions.id, version.id));
}

async function finishRestore(db: Db, archive: Archive) {
  const archiveBlobIds = await db.transaction(async (tx) => {
    const [locked] = await tx.select().from(archives).where(eq(archives.id, archive.id)).for("update");
    if (!locked || locked.state !== "restoring") return [];
    const dest = await destinationOf(tx, locked);
    const saved = await tx.select().from(archiveVersions).where(eq(archiveVersions.archiveId, archive.id));
    if (saved.length > 0) {
      await tx.insert(fileVersions).values(
        saved.map((v) => ({
          id: v.id,
          fileId: v.fileId,
          number: v.number,
          blobId: v.restoredBlobId ?? v.sourceBlobId,
          size: v.size,
          md5: v.md5,
          mime: v.mime,
          creatorId: v.creatorId,
          createdAt: v.createdAt,
          modifiedAt: v.modifiedAt,
          meta: v.meta,
        })),
      );
    }
    const folderItems = sql`(SELECT item_id FROM archive_items WHERE archive_id = ${archive.id} AND item_type = 'folder')`;
    const fileItems = sql`(SELECT item_id FROM archive_items WHERE archive_id = ${archive.id} AND item_type = 'file')`;
    if (locked.type === "folder") {
      const [root] = await tx.select().from(folders).where(eq(folders.id, locked.objectId));
      const name = await firstFreeName(root.name, (candidate) => folderNameTaken(tx, dest.id, candidate), false);
      await tx.update(folders).set({ name }).where(eq(folders.id, root.id));
      if (root.parentId !== dest.id) await moveSubtree(tx, root, dest, dest.ownerId);
      await tx.execute(sql`UPDATE folders SET deleted_at = NULL WHERE id IN ${folderItems}`);
    } else {
      const [file] = await tx.select().from(files).where(eq(files.id, locked.objectId));
      const name = await firstFreeName(file.name, (candidate) => fileNameTaken(tx, dest.id, candidate));
      await tx.update(files).set({ name, folderId: dest.id }).where(eq(files.id, file.id));
    }
    // Each file's newest live version is its current one again (a version trashed meanwhile stays in the trash).
    await tx.execute(sql`
      UPDATE files f SET deleted_at = NULL, current_version_id = (
        SELECT v.id FROM file_versions v WHERE v.file_id = f.id AND v.deleted_at IS NULL ORDER BY v.number DESC LIMIT 1)
      WHERE f.id IN ${fileItems}`);
    for (const v of saved) await enqueueDerivatives(tx, { id: v.id });
    const [owner] = locked.ownerId === null ? [] : await tx.select().from(users).where(eq(users.id, locked.ownerId));
    await writeLog(tx, { actor: owner ?? null, request: { ip: "job", userAgent: null } }, {
      type: "ADMLLOG_RESTORE",
      message: `Unarchived a ${locked.type} into folder ${dest.id}`,
      objectType: "archive",
      objectId: locked.id,
      object: locked.name,
    });
    await tx.delete(archives).where(eq(archives.id, locked.id));
    return [...new Set(saved.map((v) => v.archiveBlobId).filter((id): id is string => id !== null))];
  });
  await deleteArchiveBlobs(db, archiveBlobIds);
}

/** Where the restore was asked to go, or, when that folder went meanwhile, the owner's private space. */
async function destinationOf(db: DbOrTx, archive: Archive): Promise<Folder> {
  const live = async (id: number | null | undefined) =>
    id ? (await db.select().from(folders).where(and(eq(folders.id, id), isNull(folders.deletedAt))))[0] : undefined;
  const asked = await live(archive.restoreParentId);
  if (asked) return asked;
  const [owner] = archive.ownerId === null ? [] : await db.select({ rootId: users.privateRootId }).from(users).where(eq(users.id, archive.ownerId));
  const root = await live(owner?.rootId);
  if (root) return root;
  throw new Error(`Archive ${archive.id}: its destination and its owner's private space are gone`);
}

async function folderNameTaken(db: DbOrTx, parentId: number, name: string) {
  const found = await db.select({ id: folders.id }).from(folders).where(and(eq(folders.parentId, parentId), isNull(folders.deletedAt), sameName(folders.nameKey, name))).limit(1);
  return found.length > 0;
}

async function fileNameTaken(db: DbOrTx, folderId: number, name: string) {
  const found = await db.select({ id: files.id }).from(files).where(and(eq(files.folderId, folderId), isNull(files.deletedAt), sameName(files.nameKey, name))).limit(1);
  return found.length > 0;
}

/** Archive blobs nothing references any more (deleted after the transaction that let them go). */
export async function deleteArchiveBlobs(db: DbOrTx, ids: string[]) {
  if (ids.length === 0) return;
  const still = new Set(
    rows<{ id: string }>(
      await db.execute(sql`SELECT archive_blob_id AS id FROM archive_versions WHERE archive_blob_id IN (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`),
    ).map((r) => r.id),
  );
  const store = getArchiveStore();
  for (const id of ids) if (!still.has(id)) await store.delete(id).catch(() => undefined);
}
