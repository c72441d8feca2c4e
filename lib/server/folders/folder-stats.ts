import "server-only";
import { sql } from "drizzle-orm";
import { rows, type DbOrTx } from "@/db";

export type FolderStats = { size: number; nb_d_folders: number; nb_d_files: number; nb_folders: number; nb_files: number };

/** Sizes and counts (direct and whole subtree) of live content, for several folders in one query. */
export async function loadFolderStats(db: DbOrTx, folderIds: number[]): Promise<Map<number, FolderStats>> {
  const ids = [...new Set(folderIds)];
  const result = new Map<number, FolderStats>();
  if (ids.length === 0) return result;
  const idList = sql.join(ids.map((id) => sql`${id}`), sql`, `);
  const found = rows<{ id: number; size: string | number; nb_d_folders: string | number; nb_d_files: string | number; nb_folders: string | number; nb_files: string | number }>(
    await db.execute(sql`
      SELECT f.id,
        (SELECT count(*) FROM folders c WHERE c.parent_id = f.id AND c.deleted_at IS NULL) AS nb_d_folders,
        (SELECT count(*) FROM files c WHERE c.folder_id = f.id AND c.deleted_at IS NULL) AS nb_d_files,
        (SELECT count(*) FROM folders c WHERE c.path @> ARRAY[f.id] AND c.deleted_at IS NULL) AS nb_folders,
        t.nb_files, t.size
      FROM folders f
      LEFT JOIN LATERAL (
        SELECT count(*) AS nb_files, coalesce(sum(v.size), 0) AS size
        FROM files x JOIN file_versions v ON v.id = x.current_version_id
        WHERE x.deleted_at IS NULL AND (x.folder_id = f.id OR x.folder_id IN (
          SELECT c.id FROM folders c WHERE c.path @> ARRAY[f.id] AND c.deleted_at IS NULL))
      ) t ON true
      WHERE f.id IN (${idList})`),
  );
  for (const r of found) {
    result.set(Number(r.id), {
      size: Number(r.size),
      nb_d_folders: Number(r.nb_d_folders),
      nb_d_files: Number(r.nb_d_files),
      nb_folders: Number(r.nb_folders),
      nb_files: Number(r.nb_files),
    });
  }
  return result;
}
