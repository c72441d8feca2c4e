import { eq, sql } from "drizzle-orm";
import { rows, type DbOrTx } from "@/db";
import { users, type Folder } from "@/db/schema";
import { getPlatformConfig } from "../config/platform-config";
import { AppError } from "../errors";

export type QuotaScope = { userId: number; folder: Pick<Folder, "id" | "path"> };

/**
 * Refuses with 507 when `bytes` more would exceed the uploader's quota, the quota of the nearest
 * folder carrying one, or the platform quota. With `lock`, the rows that carry the quotas are
 * locked until the transaction ends, so concurrent uploads are checked one after the other and
 * can never exceed a quota together. Versions and trashed content count.
 */
export async function assertQuota(db: DbOrTx, scope: QuotaScope, bytes: number, options: { lock: boolean }) {
  const lock = options.lock;
  const userQuery = db.select({ quota: users.quota }).from(users).where(eq(users.id, scope.userId));
  // Lock the user row only when it carries a quota: otherwise every upload of one user would
  // wait for the previous one to commit (measured: most of the time of 20 concurrent uploads).
  let [user] = await userQuery;
  if (lock && user?.quota !== null && user?.quota !== undefined) [user] = await userQuery.for("update");
  if (user?.quota !== null && user?.quota !== undefined) {
    const used = await sumOf(db, sql`creator_id = ${scope.userId}`);
    if (used + bytes > user.quota) throw exhausted("your quota");
  }

  const quotaFolder = await findQuotaFolder(db, scope.folder);
  if (quotaFolder && quotaFolder.quota > 0) {
    if (lock) await db.execute(sql`SELECT id FROM folders WHERE id = ${quotaFolder.id} FOR UPDATE`);
    const used = await usedInFolder(db, quotaFolder.id);
    if (used + bytes > quotaFolder.quota) throw exhausted("the folder's quota");
  }

  const config = await getPlatformConfig(db);
  if (config.quota !== null) {
    if (lock) await db.execute(sql`SELECT pg_advisory_xact_lock(727002)`);
    const used = await sumOf(db, sql`true`);
    if (used + bytes > config.quota) throw exhausted("the platform's quota");
  }
}

const exhausted = (what: string) => new AppError("insufficient_storage", `Storage exhausted: this would exceed ${what}`);

/** The folder whose quota applies: the nearest of the folder and its ancestors not set to inherit (-1). */
export async function findQuotaFolder(db: DbOrTx, folder: Pick<Folder, "id" | "path">): Promise<{ id: number; quota: number } | null> {
  const chain = [...folder.path, folder.id];
  const found = rows<{ id: number; quota: string | number }>(
    await db.execute(sql`
      SELECT id, quota FROM folders
      WHERE id IN (${sql.join(chain.map((id) => sql`${id}`), sql`, `)}) AND quota <> -1
      ORDER BY array_position(${sql.raw(`ARRAY[${chain.map(Number).join(",")}]::int[]`)}, id) DESC LIMIT 1`),
  );
  return found[0] ? { id: Number(found[0].id), quota: Number(found[0].quota) } : null;
}

/** Bytes of every version (trashed included) of the files in a folder's subtree. */
export async function usedInFolder(db: DbOrTx, folderId: number): Promise<number> {
  return sumOf(
    db,
    sql`file_id IN (SELECT x.id FROM files x WHERE x.folder_id = ${folderId}
          OR x.folder_id IN (SELECT c.id FROM folders c WHERE c.path @> ARRAY[${folderId}::int]))`,
  );
}

export async function usedByUser(db: DbOrTx, userId: number): Promise<number> {
  return sumOf(db, sql`creator_id = ${userId}`);
}

export async function usedOnPlatform(db: DbOrTx): Promise<number> {
  return sumOf(db, sql`true`);
}

async function sumOf(db: DbOrTx, where: ReturnType<typeof sql>): Promise<number> {
  const [r] = rows<{ used: string | number }>(await db.execute(sql`SELECT coalesce(sum(size), 0) AS used FROM file_versions WHERE ${where}`));
  return Number(r.used);
}
