import "server-only";
import { sql } from "drizzle-orm";
import { rows, type DbOrTx } from "@/db";
import type { UserSize } from "@/lib/contracts/stats";
import { getBlobStore } from "@/lib/server/blobs/stores";
import { getPlatformConfig } from "../config/platform-config";
import { usedOnPlatform } from "../quotas/assert-quota";

/**
 * The aggregate queries behind GET /stats, one function per part. Each is one statement; the
 * heavy ones (sums over every version) are what the cache in get-stats.ts exists for.
 */

type UserSizeRow = { id: number; login: string; firstname: string; lastname: string; size: string | number };

const toUserSizes = (found: UserSizeRow[]): UserSize[] =>
  found.map((r) => ({ id: String(r.id), user: `${r.firstname} ${r.lastname}`.trim() || r.login, login: r.login, size: Number(r.size) }));

/**
 * Bytes of every version (trashed included, as quotas count), against the platform quota or the
 * disk. Without a quota on a store that knows no free space (S3), `free` and `percent` are null.
 */
export async function mainStorage(db: DbOrTx) {
  const [config, used] = await Promise.all([getPlatformConfig(db), usedOnPlatform(db)]);
  const quota = config.quota;
  const free = quota !== null ? Math.max(0, quota - used) : await getBlobStore().freeBytes();
  if (free === null) return { used, free: null, quota, percent: null };
  const capacity = quota ?? used + free;
  const percent = capacity > 0 ? Math.round((used / capacity) * 10_000) / 100 : 0;
  return { used, free, quota, percent };
}

/**
 * Trash per user: the bytes purging each trash would free. Whole trashed files (found through
 * files.trash_id, indexed) count their live versions; versions trashed alone count through the
 * trash item that holds them. Grouped by whose trash it is.
 */
export async function trashStorage(db: DbOrTx) {
  const found = rows<UserSizeRow>(
    await db.execute(sql`
      WITH per_owner AS (
        SELECT t.owner_id, v.size FROM files f
          JOIN trash_items t ON t.id = f.trash_id
          JOIN file_versions v ON v.file_id = f.id AND v.deleted_at IS NULL
          WHERE f.trash_id IS NOT NULL
        UNION ALL
        SELECT t.owner_id, v.size FROM trash_items t
          JOIN file_versions v ON v.id = ANY(t.version_ids)
          WHERE t.version_ids IS NOT NULL)
      SELECT u.id, u.login, u.firstname, u.lastname, sum(p.size) AS size
      FROM per_owner p JOIN users u ON u.id = p.owner_id
      GROUP BY u.id ORDER BY size DESC, u.id`),
  );
  const users = toUserSizes(found);
  return { total: users.reduce((sum, u) => sum + u.size, 0), users };
}

/** Private spaces per user: the versions of the files under each user's private root. */
export async function privateStorage(db: DbOrTx) {
  const found = rows<UserSizeRow>(
    await db.execute(sql`
      SELECT u.id, u.login, u.firstname, u.lastname, sum(v.size) AS size
      FROM folders d
        JOIN files f ON f.folder_id = d.id
        JOIN file_versions v ON v.file_id = f.id
        JOIN users u ON u.private_root_id = coalesce(d.path[1], d.id)
      WHERE d.space = 'private'
      GROUP BY u.id ORDER BY size DESC, u.id`),
  );
  const users = toUserSizes(found);
  return { total: users.reduce((sum, u) => sum + u.size, 0), users };
}

/** Versions other than each file's current one (kept history), not trashed. */
export async function versionStorage(db: DbOrTx) {
  const [r] = rows<{ count: string | number; size: string | number }>(
    await db.execute(sql`
      SELECT count(*) AS count, coalesce(sum(v.size), 0) AS size
      FROM file_versions v JOIN files f ON f.id = v.file_id
      WHERE v.deleted_at IS NULL AND v.id IS DISTINCT FROM f.current_version_id`),
  );
  return { count: Number(r.count), size: Number(r.size) };
}

/** Whose uploads weigh most: every version each user created (their quota's `used`, from user_usage). */
export async function largestUsers(db: DbOrTx, limit = 10): Promise<UserSize[]> {
  return toUserSizes(
    rows<UserSizeRow>(
      await db.execute(sql`
        SELECT u.id, u.login, u.firstname, u.lastname, s.size
        FROM (
          SELECT user_id, bytes AS size FROM user_usage g
          WHERE bytes <> 0 OR EXISTS (SELECT 1 FROM file_versions v WHERE v.creator_id = g.user_id)
          ORDER BY 2 DESC LIMIT ${limit}) s
          JOIN users u ON u.id = s.user_id
        ORDER BY s.size DESC, u.id`),
    ),
  );
}
