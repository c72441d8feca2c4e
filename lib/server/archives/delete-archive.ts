import "server-only";
import { eq, sql } from "drizzle-orm";
import { archives, archiveVersions } from "@/db/schema";
import { writeLog } from "../audit/write-log";
import { logWho, type AuthedCtx } from "../context";
import { AppError } from "../errors";
import { scheduleBlobCollection } from "../trash/purge";
import { getOwnArchiveOrThrow } from "./archive-access";
import { deleteArchiveBlobs } from "./restore-archive-job";

/**
 * DELETE /archive/file/(id) and /archive/folder/(id): the archived object is deleted for good,
 * with its subtree and every version (live ones not moved yet included); its bytes leave the cold
 * tier. Not while it is being restored (409). 204.
 */
export async function deleteArchive(ctx: AuthedCtx, type: "file" | "folder", apiId: number): Promise<void> {
  const archiveBlobIds = await ctx.db.transaction(async (tx) => {
    const archive = await getOwnArchiveOrThrow(tx, ctx.actor.user, type, apiId, { lock: true });
    if (archive.state === "restoring") throw new AppError("conflict", "This archive is being restored");
    const stored = await tx.selectDistinct({ id: archiveVersions.archiveBlobId }).from(archiveVersions).where(eq(archiveVersions.archiveId, archive.id));
    const folderItems = sql`(SELECT item_id FROM archive_items WHERE archive_id = ${archive.id} AND item_type = 'folder')`;
    const fileItems = sql`(SELECT item_id FROM archive_items WHERE archive_id = ${archive.id} AND item_type = 'file')`;
    // Versions of its files still in the trash go with them.
    await tx.execute(sql`DELETE FROM trash_items WHERE file_id IN ${fileItems}`);
    await tx.execute(sql`DELETE FROM files WHERE id IN ${fileItems}`);
    await tx.execute(sql`DELETE FROM folders WHERE id IN ${folderItems}`);
    await tx.delete(archives).where(eq(archives.id, archive.id));
    await scheduleBlobCollection(tx);
    await writeLog(tx, logWho(ctx, tx), { type: "ADMLLOG_DELETE", message: `Deleted an archived ${archive.type} for good`, objectType: "archive", objectId: archive.id, object: archive.name });
    return stored.map((s) => s.id).filter((id): id is string => id !== null);
  });
  await deleteArchiveBlobs(ctx.db, archiveBlobIds);
}
