import "server-only";
import { sql } from "drizzle-orm";
import { rows, type DbOrTx } from "@/db";
import type { Folder } from "@/db/schema";
import { AppError } from "../errors";
import { findQuotaFolder, usedInFolder } from "../quotas/assert-quota";
import { idArray } from "./id-array";

/**
 * Moves a folder and its whole subtree (trashed rows included, so restores still find their
 * place) under `dest` (null = company top level) in ONE statement: the path prefix is swapped,
 * and the subtree takes the space and owner of its new tree, so a move never leaves anyone
 * rights they only had through the old tree.
 */
export async function moveSubtree(db: DbOrTx, folder: Folder, dest: Folder | null, newOwnerId: number) {
  const prefix = dest ? [...dest.path, dest.id] : [];
  const keepFrom = folder.path.length + 1;
  await db.execute(sql`
    UPDATE folders SET
      path = ${idArray(prefix)} || path[${sql.raw(String(keepFrom))}:],
      parent_id = CASE WHEN id = ${folder.id} THEN ${dest?.id ?? null}::int ELSE parent_id END,
      space = ${dest?.space ?? "company"},
      owner_id = ${newOwnerId}
    WHERE id = ${folder.id} OR path @> ARRAY[${folder.id}::int]`);
}

/**
 * A move brings bytes under the quota of the destination's quota folder unless that folder
 * already holds them: refuse with 507 when they do not fit. The quota row stays locked.
 */
export async function assertMoveFitsQuota(db: DbOrTx, folder: Folder, dest: Folder) {
  const quotaFolder = await findQuotaFolder(db, dest);
  if (!quotaFolder || quotaFolder.quota <= 0 || folder.path.includes(quotaFolder.id)) return;
  await db.execute(sql`SELECT id FROM folders WHERE id = ${quotaFolder.id} FOR UPDATE`);
  const moving = await usedInFolder(db, folder.id);
  const used = await usedInFolder(db, quotaFolder.id);
  if (used + moving > quotaFolder.quota) throw new AppError("insufficient_storage", "Storage exhausted: this would exceed the destination folder's quota");
}

/** 423 when a live file of the subtree is locked by someone else (contract: locked files refuse moves and deletions). */
export async function assertNoForeignLocks(db: DbOrTx, folderId: number, userId: number) {
  const found = rows<{ name: string }>(
    await db.execute(sql`
      SELECT x.name FROM file_locks l JOIN files x ON x.id = l.file_id
      WHERE l.owner_id <> ${userId} AND x.deleted_at IS NULL
        AND x.folder_id IN (SELECT id FROM folders WHERE id = ${folderId} OR path @> ARRAY[${folderId}::int])
      LIMIT 1`),
  );
  if (found[0]) throw new AppError("locked", `"${found[0].name}" in this folder is locked by another user`);
}
