import "server-only";
import { sql } from "drizzle-orm";
import { rows, type DbOrTx } from "@/db";
import type { Folder } from "@/db/schema";
import { getPlatformConfig } from "../config/platform-config";
import { AppError } from "../errors";
import { idArray } from "../folders/id-array";
import { exceededQuota, inSubtree, OPEN_RESERVATION, quotaFolderOf, readQuotaStanding, roomLeft, subtreeFiles } from "./quota-standing";

export type QuotaScope = { userId: number; folder: Pick<Folder, "id" | "path"> };

/**
 * Refuses with 507 when `bytes` more would exceed the uploader's quota, the quota of the nearest
 * folder carrying one, or the platform quota. With `lock`, the rows that carry the quotas are
 * locked until the transaction ends, so concurrent uploads are checked one after the other and
 * can never exceed a quota together. Versions and trashed content count, and so do the bytes
 * reserved by open uploads (chunked and tus, reserved in full when they open), so two uploads
 * under way cannot both be promised the same room. One round trip: the lock and the count are
 * sent together (quota-standing.ts).
 */
export async function assertQuota(db: DbOrTx, scope: QuotaScope, bytes: number, options: { lock: boolean }) {
  const ids = { userId: scope.userId, folderId: scope.folder.id, platformQuota: (await getPlatformConfig(db)).quota };
  const exceeded = exceededQuota(await readQuotaStanding(db, ids, { lock: options.lock }), bytes);
  if (exceeded) throw exhausted(exceeded);
}

/**
 * The bytes an upload into `scope` may still bring before one of its quotas (user, folder,
 * platform) is exceeded, pending reservations deducted; Infinity when none applies. Without a
 * folder, only the user and platform quotas count (the folder is not known yet). Used to cut a
 * body off while it streams instead of storing it all and refusing it at the end.
 */
export async function remainingQuota(db: DbOrTx, scope: { userId: number; folder?: Pick<Folder, "id" | "path"> }): Promise<number> {
  const platformQuota = (await getPlatformConfig(db)).quota;
  return roomLeft(await readQuotaStanding(db, { userId: scope.userId, folderId: scope.folder?.id ?? null, platformQuota }));
}

export const exhausted = (what: string) => new AppError("insufficient_storage", `Storage exhausted: this would exceed ${what}`);

/** The folder whose quota applies: the nearest of the folder and its ancestors not set to inherit (-1). */
export async function findQuotaFolder(db: DbOrTx, folder: Pick<Folder, "id">): Promise<{ id: number; quota: number } | null> {
  const [found] = rows<{ id: number; quota: string | number }>(await db.execute(quotaFolderOf(folder.id)));
  return found ? { id: Number(found.id), quota: Number(found.quota) } : null;
}

/** Bytes of every version (trashed included) of the files in a folder's subtree. */
export async function usedInFolder(db: DbOrTx, folderId: number): Promise<number> {
  return sumOf(db, sql`file_id IN (${subtreeFiles(sql`${folderId}`)})`);
}

/** usedInFolder of many folders in one statement (a WebDAV listing's quota properties), by folder id. */
export async function usedInFolders(db: DbOrTx, folderIds: number[]): Promise<Map<number, number>> {
  if (folderIds.length === 0) return new Map();
  const found = rows<{ id: number; used: string | number }>(
    await db.execute(sql`
      SELECT c.id, coalesce((SELECT sum(size) FROM file_versions WHERE file_id IN (${subtreeFiles(sql`c.id`)})), 0) AS used
      FROM unnest(${idArray(folderIds)}) AS c(id)`),
  );
  return new Map(found.map((r) => [Number(r.id), Number(r.used)]));
}

/** findQuotaFolder of many folders in one statement, by folder id (null: no quota applies). */
export async function findQuotaFolders(db: DbOrTx, list: Pick<Folder, "id">[]): Promise<Map<number, { id: number; quota: number } | null>> {
  const result = new Map<number, { id: number; quota: number } | null>(list.map((f) => [f.id, null]));
  if (list.length === 0) return result;
  const found = rows<{ folder_id: number; id: number; quota: string | number }>(
    await db.execute(sql`
      SELECT DISTINCT ON (f.id) f.id AS folder_id, q.id, q.quota
      FROM folders f JOIN folders q ON q.id = ANY(f.path || f.id) AND q.quota <> -1
      WHERE f.id = ANY(${idArray(list.map((f) => f.id))})
      ORDER BY f.id, array_position(f.path || f.id, q.id) DESC`),
  );
  for (const r of found) result.set(Number(r.folder_id), { id: Number(r.id), quota: Number(r.quota) });
  return result;
}

/** The user's `used`: one row of user_usage (kept by triggers on file_versions, migration 0020). */
export async function usedByUser(db: DbOrTx, userId: number): Promise<number> {
  const [r] = rows<{ used: string | number }>(await db.execute(sql`SELECT coalesce((SELECT bytes FROM user_usage WHERE user_id = ${userId}), 0) AS used`));
  return Number(r.used);
}

/** Every user's usage added up: as many rows as users, not as versions. */
export async function usedOnPlatform(db: DbOrTx): Promise<number> {
  const [r] = rows<{ used: string | number }>(await db.execute(sql`SELECT coalesce(sum(bytes), 0) AS used FROM user_usage`));
  return Number(r.used);
}

export async function pendingOfUser(db: DbOrTx, userId: number): Promise<number> {
  return pendingOf(db, sql`user_id = ${userId}`);
}

export async function pendingInFolder(db: DbOrTx, folderId: number): Promise<number> {
  return pendingOf(db, inSubtree(sql`${folderId}`));
}

/** pendingInFolder of many folders in one statement, by folder id. */
export async function pendingInFolders(db: DbOrTx, folderIds: number[]): Promise<Map<number, number>> {
  if (folderIds.length === 0) return new Map();
  const found = rows<{ id: number; pending: string | number }>(
    await db.execute(sql`
      SELECT c.id, coalesce((SELECT sum(size) FROM uploads WHERE ${OPEN_RESERVATION} AND ${inSubtree(sql`c.id`)}), 0) AS pending
      FROM unnest(${idArray(folderIds)}) AS c(id)`),
  );
  return new Map(found.map((r) => [Number(r.id), Number(r.pending)]));
}

export async function pendingOnPlatform(db: DbOrTx): Promise<number> {
  return pendingOf(db, sql`true`);
}

async function pendingOf(db: DbOrTx, where: ReturnType<typeof sql>): Promise<number> {
  const [r] = rows<{ pending: string | number }>(await db.execute(sql`SELECT coalesce(sum(size), 0) AS pending FROM uploads WHERE ${OPEN_RESERVATION} AND ${where}`));
  return Number(r.pending);
}

async function sumOf(db: DbOrTx, where: ReturnType<typeof sql>): Promise<number> {
  const [r] = rows<{ used: string | number }>(await db.execute(sql`SELECT coalesce(sum(size), 0) AS used FROM file_versions WHERE ${where}`));
  return Number(r.used);
}
