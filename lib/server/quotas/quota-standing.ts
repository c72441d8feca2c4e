import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { rows, type DbOrTx } from "@/db";

/** A quota that applies and the bytes counted against it (versions, trashed ones included, and open reservations). */
export type QuotaCount = { quota: number; used: number };

/** The quotas an upload into a folder counts under, each null when none applies. */
export type QuotaStanding = { user: QuotaCount | null; folder: (QuotaCount & { id: number }) | null; platform: QuotaCount | null };

/**
 * Bytes reserved by open uploads (the `uploads` rows: a chunked upload's `fileSize`, a tus
 * session's `size`), except those being finished: their commit counts the real file instead.
 */
export const OPEN_RESERVATION = sql`size IS NOT NULL AND (context->>'finishing') IS NULL`;

/** The files of a folder's subtree, trashed ones included: what its quota counts. */
export const subtreeFiles = (folderId: SQL) => sql`SELECT x.id FROM files x WHERE x.folder_id = ${folderId}
          OR x.folder_id IN (SELECT c.id FROM folders c WHERE c.path @> ARRAY[${folderId}::int])`;

/** Upload sessions whose folder is in a folder's subtree. */
export const inSubtree = (folderId: SQL) => sql`folder_id IN (SELECT c.id FROM folders c WHERE c.id = ${folderId} OR c.path @> ARRAY[${folderId}::int])`;

/**
 * SQL: the nearest of a folder and its ancestors not set to inherit (-1), as (id, quota); its
 * quota applies when positive. By the folder's id, so the statement's text never changes (it is
 * prepared once per connection).
 */
export const quotaFolderOf = (folderId: number | null) => sql`
  SELECT q.id, q.quota FROM folders f JOIN folders q ON q.id = ANY(f.path || f.id) AND q.quota <> -1
  WHERE f.id = ${folderId}::int ORDER BY array_position(f.path || f.id, q.id) DESC LIMIT 1`;

/** What the platform's quota is, from its configuration (the caller has it cached). */
export type QuotaScopeIds = { userId: number; folderId: number | null; platformQuota: number | null };

/**
 * Every quota that applies to an upload by `userId` into `folderId` (null: the folder is not known
 * yet, only the user's and the platform's count), in one statement: a count is only summed where
 * its quota exists (CASE evaluates its branch's subqueries only when taken).
 *
 * With `lock`, in a transaction, what carries the quotas is locked first, until the transaction
 * ends, in a fixed order (the uploader's row when it has a quota, the quota folder's row when
 * positive, the platform's advisory lock when the platform has one), so that concurrent uploads
 * are counted one after the other. The lock and the count are sent together, in this order
 * (execute() starts each at once): the count, a statement of its own, takes its snapshot once the
 * lock is held, so it sees what every earlier holder committed. One round trip either way.
 */
export async function readQuotaStanding(db: DbOrTx, scope: QuotaScopeIds, options: { lock?: boolean } = {}): Promise<QuotaStanding> {
  const platform = scope.platformQuota !== null;
  const locked = options.lock
    ? db
        .execute(
          sql`
    SELECT (SELECT 1 FROM users WHERE id = ${scope.userId}::int AND quota IS NOT NULL FOR UPDATE) AS user_row,
      (SELECT 1 FROM folders WHERE id = (SELECT id FROM (${quotaFolderOf(scope.folderId)}) qf) AND quota > 0 FOR UPDATE) AS folder_row,
      CASE WHEN ${platform}::boolean THEN pg_advisory_xact_lock(727002) END AS platform`,
        )
        .execute()
    : undefined;
  const counted = db
    .execute(
      sql`
      WITH qf AS (${quotaFolderOf(scope.folderId)})
      SELECT u.quota AS user_quota,
        CASE WHEN u.quota IS NOT NULL THEN
          coalesce((SELECT bytes FROM user_usage WHERE user_id = u.id), 0)
          + (SELECT coalesce(sum(size), 0) FROM uploads WHERE ${OPEN_RESERVATION} AND user_id = u.id) END AS user_used,
        qf.id AS folder_id, qf.quota AS folder_quota,
        CASE WHEN qf.quota > 0 THEN
          (SELECT coalesce(sum(size), 0) FROM file_versions WHERE file_id IN (${subtreeFiles(sql`qf.id`)}))
          + (SELECT coalesce(sum(size), 0) FROM uploads WHERE ${OPEN_RESERVATION} AND ${inSubtree(sql`qf.id`)}) END AS folder_used,
        CASE WHEN ${platform}::boolean THEN
          (SELECT coalesce(sum(bytes), 0) FROM user_usage) + (SELECT coalesce(sum(size), 0) FROM uploads WHERE ${OPEN_RESERVATION}) END AS platform_used
      FROM users u LEFT JOIN qf ON true WHERE u.id = ${scope.userId}::int`,
    )
    .execute();
  const [, result] = await Promise.all([locked, counted]);
  const [r] = rows<{ user_quota: string | null; user_used: string | null; folder_id: number | null; folder_quota: string | null; folder_used: string | null; platform_used: string | null }>(result);
  const count = (quota: string | number | null | undefined, used: string | null | undefined) => (quota === null || quota === undefined ? null : { quota: Number(quota), used: Number(used ?? 0) });
  const folderQuota = r && r.folder_id !== null && Number(r.folder_quota) > 0 ? count(r.folder_quota, r.folder_used) : null;
  return {
    user: count(r?.user_quota, r?.user_used),
    folder: folderQuota && { ...folderQuota, id: Number(r.folder_id) },
    platform: platform ? count(scope.platformQuota, r?.platform_used) : null,
  };
}

/** The bytes an upload may still bring before one of the quotas is exceeded; Infinity when none applies. */
export function roomLeft(standing: QuotaStanding): number {
  const counts = [standing.user, standing.folder, standing.platform].filter((c): c is QuotaCount => c !== null);
  return Math.max(0, Math.min(Number.POSITIVE_INFINITY, ...counts.map((c) => c.quota - c.used)));
}

/** Which quota `bytes` more would exceed, in the order they are checked, or null. */
export function exceededQuota(standing: QuotaStanding, bytes: number): "your quota" | "the folder's quota" | "the platform's quota" | null {
  const over = (c: QuotaCount | null) => c !== null && c.used + bytes > c.quota;
  if (over(standing.user)) return "your quota";
  if (over(standing.folder)) return "the folder's quota";
  if (over(standing.platform)) return "the platform's quota";
  return null;
}
