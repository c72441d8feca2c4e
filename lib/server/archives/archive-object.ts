import "server-only";
import { eq, sql } from "drizzle-orm";
import { rows, type DbOrTx } from "@/db";
import { archives, type Archive, type Folder } from "@/db/schema";
import type { ArchiveResponse } from "@/lib/contracts/archives";
import { writeLog } from "../audit/write-log";
import { logWho, type AuthedCtx } from "../context";
import { AppError } from "../errors";
import { getFileOrThrow } from "../files/get-file";
import { assertNoForeignLocks } from "../folders/move-folder";
import { getFolderOrThrow } from "../folders/get-folder";
import { enqueueJob } from "../jobs/enqueue";
import { isLockedForOthers, loadLocks } from "../locks/serialize-lock";
import { assertMayTakeFileOut, assertMayTakeFolderOut } from "../rights/take-out";
import { assertArchiveQuota } from "./archive-quota";
import { presentArchive } from "./present-archives";

export const MOVE_JOB = "archives.move";

/**
 * PUT /file/(id)/archive (api.md): the file leaves the live tree at once (not listed, searched nor
 * shared: its link shares lose it) and a job moves its live versions to the cold tier. It leaves
 * its folder as in a move: read, download, edit and delete there (its owner has them all); the
 * archive is its owner's, whoever archives it. A lock of someone else's is a 423. Counted in the
 * archive quota (507). 200 Archive, state pending.
 */
export async function archiveFile(ctx: AuthedCtx, versionId: number): Promise<ArchiveResponse> {
  const user = ctx.actor.user;
  const { file, folder, rights } = await getFileOrThrow(ctx.db, user, versionId, "browse");
  assertMayTakeFileOut(rights, "Archiving a file");
  if (isLockedForOthers((await loadLocks(ctx.db, [file.id])).get(file.id), user.id)) throw new AppError("locked", "This file is locked by another user");
  return ctx.db.transaction(async (tx) => {
    const archive = await insertArchive(tx, {
      ownerId: folder.ownerId,
      type: "file",
      objectId: file.id,
      objectVersionId: file.currentVersionId,
      name: file.name,
      originalParentId: folder.id,
      pathName: await pathNameOf(tx, [...folder.path, folder.id]),
    });
    await tx.execute(sql`INSERT INTO archive_items (archive_id, item_type, item_id) VALUES (${archive.id}, 'file', ${file.id})`);
    return hideAndQueue(tx, ctx, archive);
  });
}

/**
 * PUT /folder/(id)/archive (api.md): the folder and every live folder and file below it leave the
 * live tree in one transaction, so nobody ever sees part of it gone; a job then moves the bytes.
 * It leaves its parent as in a move (read, download, edit and delete there, read and download on
 * its subtree, unless the caller owns it); the archive is the folder's owner's. A space's root
 * cannot be archived; a file below locked by someone else is a 423. 200 Archive, state pending.
 */
export async function archiveFolder(ctx: AuthedCtx, folderId: number): Promise<ArchiveResponse> {
  const user = ctx.actor.user;
  const { folder } = await getFolderOrThrow(ctx.db, user, folderId, "browse");
  if (folder.parentId === null) throw new AppError("forbidden", "A space's top folder cannot be archived");
  await assertMayTakeFolderOut(ctx.db, user, folder, "Archiving a folder");
  await assertNoForeignLocks(ctx.db, folder.id, user.id);
  return ctx.db.transaction(async (tx) => {
    const archive = await insertArchive(tx, {
      ownerId: folder.ownerId,
      type: "folder",
      objectId: folder.id,
      objectVersionId: null,
      name: folder.name,
      originalParentId: folder.parentId,
      pathName: await pathNameOf(tx, folder.path),
    });
    await tx.execute(sql`
      INSERT INTO archive_items (archive_id, item_type, item_id)
      SELECT ${archive.id}, 'folder', id FROM folders
      WHERE (id = ${folder.id} OR path @> ARRAY[${folder.id}::int]) AND deleted_at IS NULL`);
    await tx.execute(sql`
      INSERT INTO archive_items (archive_id, item_type, item_id)
      SELECT ${archive.id}, 'file', x.id FROM files x
      WHERE x.deleted_at IS NULL AND x.folder_id IN (SELECT item_id FROM archive_items WHERE archive_id = ${archive.id} AND item_type = 'folder')`);
    return hideAndQueue(tx, ctx, archive);
  });
}

/** `ownerId`: the owner of what is archived, never the caller (issue 25: the archive stays theirs). */
type NewArchive = Pick<Archive, "type" | "objectId" | "objectVersionId" | "name" | "originalParentId" | "pathName"> & { ownerId: number };

async function insertArchive(tx: DbOrTx, values: NewArchive): Promise<Archive> {
  const [archive] = await tx
    .insert(archives)
    .values(values)
    .onConflictDoNothing({ target: [archives.type, archives.objectId] })
    .returning();
  if (!archive) throw new AppError("conflict", `This ${values.type} is already archived`);
  return archive;
}

/**
 * Sizes and counts the archive's items, checks the archive quota, then hides them: rows marked
 * deleted (so every listing, search and share leaves them out), locks released, link shares and
 * drop links detached from them (api.md: their links stop). The move job is queued in the same
 * transaction, so an archive is never left without one.
 */
async function hideAndQueue(tx: DbOrTx, ctx: AuthedCtx, archive: Archive): Promise<ArchiveResponse> {
  const folderItems = sql`(SELECT item_id FROM archive_items WHERE archive_id = ${archive.id} AND item_type = 'folder')`;
  const fileItems = sql`(SELECT item_id FROM archive_items WHERE archive_id = ${archive.id} AND item_type = 'file')`;
  const [totals] = rows<{ size: string | number; nb_files: string | number; nb_folders: string | number }>(
    await tx.execute(sql`
      SELECT
        (SELECT coalesce(sum(v.size), 0) FROM file_versions v WHERE v.deleted_at IS NULL AND v.file_id IN ${fileItems}) AS size,
        (SELECT count(*) FROM archive_items WHERE archive_id = ${archive.id} AND item_type = 'file') AS nb_files,
        (SELECT count(*) FROM archive_items WHERE archive_id = ${archive.id} AND item_type = 'folder') AS nb_folders`),
  );
  const size = Number(totals.size);
  await assertArchiveQuota(tx, size);
  const [sized] = await tx
    .update(archives)
    .set({ size, nbFiles: Number(totals.nb_files), nbFolders: Number(totals.nb_folders) })
    .where(eq(archives.id, archive.id))
    .returning();
  await tx.execute(sql`UPDATE folders SET deleted_at = now() WHERE id IN ${folderItems}`);
  await tx.execute(sql`UPDATE files SET deleted_at = now() WHERE id IN ${fileItems}`);
  await tx.execute(sql`DELETE FROM file_locks WHERE file_id IN ${fileItems}`);
  await tx.execute(sql`DELETE FROM share_roots WHERE (entity_type = 0 AND object_id IN ${folderItems}) OR (entity_type = 1 AND object_id IN ${fileItems})`);
  await tx.execute(sql`UPDATE ulinks SET folder_id = NULL WHERE folder_id IN ${folderItems}`);
  await tx.execute(sql`UPDATE ulink_emails SET folder_id = NULL WHERE folder_id IN ${folderItems}`);
  await enqueueJob(tx, MOVE_JOB, { archiveId: archive.id }, { dedupeKey: `${MOVE_JOB}:${archive.id}`, maxAttempts: 20 });
  await writeLog(tx, logWho(ctx, tx), { type: "ADMLLOG_INSERT", message: `Archived a ${archive.type} (${size} bytes)`, objectType: "archive", objectId: archive.id, object: archive.name });
  return presentArchive(tx, sized);
}

/** "/Space/Folder/Sub": the names of the folders of `chain`, in order. */
export async function pathNameOf(db: DbOrTx, chain: number[]): Promise<string> {
  if (chain.length === 0) return "/";
  const found = rows<Pick<Folder, "id" | "name">>(await db.execute(sql`SELECT id, name FROM folders WHERE id IN (${sql.join(chain.map((id) => sql`${id}`), sql`, `)})`));
  const names = new Map(found.map((f) => [Number(f.id), f.name]));
  return `/${chain.map((id) => names.get(id) ?? "").join("/")}`;
}
