import "server-only";
import { sql } from "drizzle-orm";
import { rows, type DbOrTx } from "@/db";
import type { User } from "@/db/schema";
import { ALL_RIGHTS, NO_RIGHTS, normaliseRights, pickRights, type Rights } from "./rights";

type Row = Rights & { id: number; is_owner: boolean; has_right: boolean };

/**
 * Effective rights of `user` on each folder, in one query: administrators and the owner of the
 * folder or of any ancestor have every right; otherwise, per target (the user and each of their
 * groups) the nearest right on the folder or an ancestor applies, and the targets' rights add up.
 */
export async function resolveRights(db: DbOrTx, user: Pick<User, "id" | "role">, folderIds: number[]): Promise<Map<number, Rights>> {
  const ids = [...new Set(folderIds)];
  const result = new Map<number, Rights>();
  if (ids.length === 0) return result;
  if (user.role === 3) {
    for (const id of ids) result.set(id, ALL_RIGHTS);
    return result;
  }
  const found = rows<Row>(
    await db.execute(sql`
      WITH targets AS (
        SELECT ${user.id}::int AS id
        UNION ALL SELECT group_id FROM group_members WHERE user_id = ${user.id}
      ), f AS (
        SELECT id, path || id AS chain FROM folders WHERE id IN (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})
      )
      SELECT f.id,
        EXISTS (SELECT 1 FROM folders a WHERE a.id = ANY(f.chain) AND a.owner_id = ${user.id}) AS is_owner,
        n.target_count > 0 AS has_right,
        coalesce(n.browse, false) AS browse, coalesce(n.read, false) AS read,
        coalesce(n.download, false) AS download, coalesce(n.write, false) AS write,
        coalesce(n.edit, false) AS edit, coalesce(n.delete, false) AS delete, coalesce(n.share, false) AS share
      FROM f LEFT JOIN LATERAL (
        SELECT count(*) AS target_count, bool_or(browse) AS browse, bool_or(read) AS read, bool_or(download) AS download,
          bool_or(write) AS write, bool_or(edit) AS edit, bool_or(delete) AS delete, bool_or(share) AS share
        FROM (
          SELECT DISTINCT ON (r.target_id) r.*
          FROM rights r
          WHERE r.folder_id = ANY(f.chain) AND r.target_id IN (SELECT id FROM targets)
          ORDER BY r.target_id, array_position(f.chain, r.folder_id) DESC
        ) nearest
      ) n ON true`),
  );
  for (const r of found) {
    result.set(Number(r.id), r.is_owner ? ALL_RIGHTS : normaliseRights(pickRights(r)));
  }
  for (const id of ids) if (!result.has(id)) result.set(id, NO_RIGHTS);
  return result;
}

export async function resolveFolderRights(db: DbOrTx, user: Pick<User, "id" | "role">, folderId: number): Promise<Rights> {
  return (await resolveRights(db, user, [folderId])).get(folderId) ?? NO_RIGHTS;
}
