import "server-only";
import { sql } from "drizzle-orm";
import { rows, type DbOrTx } from "@/db";
import type { Folder } from "@/db/schema";
import { AppError } from "../errors";
import { findQuotaFolder, usedInFolder } from "../quotas/assert-quota";

type Place = Pick<Folder, "id" | "path">;

/**
 * Moving or restoring content does not change who paid for it (user and platform quotas stay
 * as they are) but it may bring it under a folder quota that did not count it yet: refuse with
 * 507 when that quota would be exceeded. The quota row stays locked until the transaction ends.
 */
export async function assertDestinationQuota(db: DbOrTx, source: Place | null, destination: Place, bytes: number) {
  const quotaFolder = await findQuotaFolder(db, destination);
  if (!quotaFolder || quotaFolder.quota <= 0 || bytes === 0) return;
  if (source && (source.id === quotaFolder.id || source.path.includes(quotaFolder.id))) return;
  await db.execute(sql`SELECT id FROM folders WHERE id = ${quotaFolder.id} FOR UPDATE`);
  const used = await usedInFolder(db, quotaFolder.id);
  if (used + bytes > quotaFolder.quota) throw new AppError("insufficient_storage", "Storage exhausted: this would exceed the destination folder's quota");
}

/** Bytes of every version of a file, trashed ones included (they count in quotas). */
export async function fileBytes(db: DbOrTx, fileId: number): Promise<number> {
  const [r] = rows<{ used: string | number }>(await db.execute(sql`SELECT coalesce(sum(size), 0) AS used FROM file_versions WHERE file_id = ${fileId}`));
  return Number(r.used);
}

/** Bytes of every version of every file in a folder's subtree, trashed ones included. */
export async function folderTreeBytes(db: DbOrTx, folderId: number): Promise<number> {
  const [r] = rows<{ used: string | number }>(
    await db.execute(sql`
      SELECT coalesce(sum(v.size), 0) AS used FROM file_versions v JOIN files x ON x.id = v.file_id
      WHERE x.folder_id IN (SELECT id FROM folders WHERE id = ${folderId} OR path @> ARRAY[${folderId}::int])`),
  );
  return Number(r.used);
}
