import "server-only";
import { and, eq, isNull, sql } from "drizzle-orm";
import { rows, type Db } from "@/db";
import { archives, archiveVersions, fileVersions, type FileVersion } from "@/db/schema";
import { scheduleBlobCollection } from "../trash/purge";
import { copyToArchive } from "./archive-bytes";
import { sweepArchiveStore } from "./sweep-archive-store";

const BATCH = 20;

/**
 * Job "archives.move" {archiveId}: moves the live versions of an archive's files to the cold
 * tier, one version per transaction: its bytes are written to the archive store (compressed,
 * under a temporary name until complete), then its row leaves file_versions for
 * archive_versions with the same id. A crash at any point leaves every version either wholly
 * live or wholly archived (the tree stays hidden meanwhile), and the job, run again, goes on
 * from there. Versions sharing a blob share one archive blob. When none is left, the archive is
 * `archived`, the live blobs nothing uses any more are collected, and so is what a crash left in
 * the cold tier.
 */
export async function moveArchiveJob(db: Db, payload: Record<string, unknown>): Promise<void> {
  const archiveId = Number(payload.archiveId);
  for (;;) {
    const [archive] = await db.select().from(archives).where(eq(archives.id, archiveId));
    if (!archive || archive.state !== "pending") return;
    const batch = rows<{ id: number }>(
      await db.execute(sql`
        SELECT v.id FROM file_versions v
        WHERE v.deleted_at IS NULL AND v.file_id IN (SELECT item_id FROM archive_items WHERE archive_id = ${archiveId} AND item_type = 'file')
        ORDER BY v.id LIMIT ${BATCH}`),
    );
    if (batch.length === 0) {
      await db.transaction(async (tx) => {
        await tx.execute(sql`
          UPDATE archives SET state = 'archived', updated_at = now(),
            stored_size = (SELECT coalesce(sum(s.stored_size), 0) FROM (
              SELECT DISTINCT ON (archive_blob_id) stored_size FROM archive_versions WHERE archive_id = ${archiveId}) s)
          WHERE id = ${archiveId} AND state = 'pending'`);
        await scheduleBlobCollection(tx);
      });
      // What an earlier crash may have left in the cold tier goes now that a move is complete.
      await sweepArchiveStore(db);
      return;
    }
    for (const { id } of batch) await moveVersion(db, archiveId, Number(id));
  }
}

async function moveVersion(db: Db, archiveId: number, versionId: number) {
  const [version] = await db.select().from(fileVersions).where(and(eq(fileVersions.id, versionId), isNull(fileVersions.deletedAt)));
  if (!version) return;
  const stored = version.blobId ? await archivedCopy(db, archiveId, version) : null;
  await db.transaction(async (tx) => {
    // Still live, still ours: a second worker, or a deletion of the archive, may have come first.
    const [still] = await tx.select({ id: fileVersions.id }).from(fileVersions).where(eq(fileVersions.id, version.id)).for("update");
    if (!still) return;
    await tx.insert(archiveVersions).values({
      id: version.id,
      archiveId,
      fileId: version.fileId,
      number: version.number,
      sourceBlobId: version.blobId,
      archiveBlobId: stored?.id ?? null,
      compression: stored?.compression ?? "none",
      size: version.size,
      storedSize: stored?.size ?? 0,
      md5: version.md5,
      mime: version.mime,
      creatorId: version.creatorId,
      createdAt: version.createdAt,
      modifiedAt: version.modifiedAt,
      meta: version.meta,
    });
    await tx.delete(fileVersions).where(eq(fileVersions.id, version.id));
  });
}

/** The archive blob of this version's bytes: the one another version of the archive already has, or a new compressed copy. */
async function archivedCopy(db: Db, archiveId: number, version: FileVersion): Promise<{ id: string; size: number; compression: string }> {
  const [same] = await db
    .select({ id: archiveVersions.archiveBlobId, size: archiveVersions.storedSize, compression: archiveVersions.compression })
    .from(archiveVersions)
    .where(and(eq(archiveVersions.archiveId, archiveId), eq(archiveVersions.sourceBlobId, version.blobId!)))
    .limit(1);
  if (same?.id) return { id: same.id, size: same.size, compression: same.compression };
  const { blob, compression } = await copyToArchive(version.blobId!);
  return { id: blob.id, size: blob.size, compression };
}
