import "server-only";
import { sql } from "drizzle-orm";
import { rows } from "@/db";
import { LARGEST_FOLDERS, type OwnStorage } from "@/lib/contracts/storage";
import type { AuthedCtx } from "../context";
import { resolveRightsMany } from "../rights/resolve-many";
import { usedByUser } from "./assert-quota";

// A few more candidates than shown, so folders the caller may no longer browse can be left out.
const CANDIDATES = LARGEST_FOLDERS * 4;

/**
 * GET /account/storage: the caller's own figures only (no id in the path, nothing to refuse but a
 * missing token). Folders are where the caller's versions sit (live folders, trashed files
 * included, as the quota counts them); one the caller may not browse is left out, so its name
 * never shows.
 */
export async function getOwnStorage(ctx: AuthedCtx): Promise<OwnStorage> {
  const user = ctx.actor.user;
  const found = rows<{ id: number; name: string; size: string | number }>(
    await ctx.db.execute(sql`
      SELECT f.id, f.name, t.size FROM (
        SELECT x.folder_id, sum(v.size) AS size
        FROM file_versions v JOIN files x ON x.id = v.file_id
        WHERE v.creator_id = ${user.id}
        GROUP BY x.folder_id
      ) t JOIN folders f ON f.id = t.folder_id AND f.deleted_at IS NULL
      WHERE t.size > 0
      ORDER BY t.size DESC, f.id
      LIMIT ${CANDIDATES}`),
  );
  const rights = await resolveRightsMany(ctx.db, user, found.map((r) => Number(r.id)));
  const folders = found
    .filter((r) => rights.get(Number(r.id))?.browse)
    .slice(0, LARGEST_FOLDERS)
    .map((r) => ({ id: Number(r.id), name: r.name, size: Number(r.size) }));
  return { quota: user.quota ?? null, used: await usedByUser(ctx.db, user.id), folders };
}
