import "server-only";
import { sql } from "drizzle-orm";
import { rows } from "@/db";
import { fileVersions, files, folders, type TrashItem } from "@/db/schema";
import type { TrashItemResponse } from "@/lib/contracts/trash";
import type { AuthedCtx } from "../context";
import { iso } from "../present/envelope";
import { idArray, idIn } from "../folders/id-array";
import { resolveRights } from "../rights/resolve-rights";
import { loadOwnerNames } from "../users/owner-names";

type Stats = { size: number; nb_folders: number; nb_files: number };

/**
 * Serialises trash items in a bounded number of queries. `size` is what purging the item frees:
 * every version it holds. `owner` is the owner of the deleted file or folder; `parent_id` and
 * `path_name` (extensions) say where it came from, naming only folders the caller may browse.
 */
export async function presentTrashItems(ctx: AuthedCtx, items: TrashItem[]): Promise<TrashItemResponse[]> {
  if (items.length === 0) return [];
  const fileIds = items.flatMap((i) => (i.fileId === null ? [] : [i.fileId]));
  const folderIds = items.flatMap((i) => (i.folderId === null ? [] : [i.folderId]));
  const versionIds = items.flatMap((i) => i.versionIds ?? []);
  const [fileRows, folderRows, liveSizes, versionRows, folderStats, places] = await Promise.all([
    fileIds.length ? ctx.db.select({ id: files.id, name: files.name, ownerId: files.ownerId, modifiedAt: files.modifiedAt }).from(files).where(idIn(files.id, fileIds)) : [],
    folderIds.length ? ctx.db.select({ id: folders.id, name: folders.name, ownerId: folders.ownerId, modifiedAt: folders.modifiedAt }).from(folders).where(idIn(folders.id, folderIds)) : [],
    loadLiveSizes(ctx, fileIds),
    versionIds.length
      ? ctx.db.select({ id: fileVersions.id, size: fileVersions.size, modifiedAt: fileVersions.modifiedAt }).from(fileVersions).where(idIn(fileVersions.id, versionIds))
      : [],
    loadFolderItemStats(ctx, items.filter((i) => i.folderId !== null).map((i) => i.id)),
    loadPlaceNames(ctx, items.flatMap((i) => (i.originalParentId === null ? [] : [i.originalParentId]))),
  ]);
  const objects = new Map<string, { name: string; ownerId: number; modifiedAt: Date }>([
    ...fileRows.map((f) => [`file:${f.id}`, f] as const),
    ...folderRows.map((f) => [`folder:${f.id}`, f] as const),
  ]);
  const versions = new Map(versionRows.map((v) => [v.id, v]));
  const owners = await loadOwnerNames(ctx.db, [...items.map((i) => i.ownerId), ...[...objects.values()].map((o) => o.ownerId)]);

  return items.map((item) => {
    const isFile = item.folderId === null;
    const object = objects.get(isFile ? `file:${item.fileId}` : `folder:${item.folderId}`);
    const ownerId = object?.ownerId ?? item.ownerId;
    const json: TrashItemResponse = {
      id: item.id,
      // Items written without a name (older deleted-user spaces) show the object's own name.
      name: item.name || object?.name || "",
      is_file: isFile,
      deletion: iso(item.deletedAt)!,
      modification: iso(object?.modifiedAt),
      owner: owners.get(ownerId) ?? "",
      owner_id: String(ownerId),
      size: 0,
      parent_id: item.originalParentId ?? 0,
      path_name: item.originalParentId === null ? "/" : (places.get(item.originalParentId) ?? "/"),
    };
    if (!isFile) {
      const stats = folderStats.get(item.id);
      Object.assign(json, { size: stats?.size ?? 0, nb_folders: stats?.nb_folders ?? 0, nb_files: stats?.nb_files ?? 0 });
    } else if (item.versionIds?.length) {
      const held = item.versionIds.flatMap((id) => versions.get(id) ?? []);
      json.size = held.reduce((sum, v) => sum + v.size, 0);
      const newest = held.reduce<Date | null>((d, v) => (d && d > v.modifiedAt ? d : v.modifiedAt), null);
      if (newest) json.modification = iso(newest);
    } else {
      json.size = liveSizes.get(item.fileId!) ?? 0;
    }
    return json;
  });
}

/** Versions of whole trashed files (those trashed separately before belong to other items). */
async function loadLiveSizes(ctx: AuthedCtx, fileIds: number[]): Promise<Map<number, number>> {
  if (fileIds.length === 0) return new Map();
  const found = rows<{ file_id: number; size: string | number }>(
    await ctx.db.execute(sql`
      SELECT file_id, coalesce(sum(size), 0) AS size FROM file_versions
      WHERE file_id = ANY(${idArray(fileIds)}) AND deleted_at IS NULL
      GROUP BY file_id`),
  );
  return new Map(found.map((r) => [Number(r.file_id), Number(r.size)]));
}

async function loadFolderItemStats(ctx: AuthedCtx, itemIds: number[]): Promise<Map<number, Stats>> {
  if (itemIds.length === 0) return new Map();
  const found = rows<{ id: number; size: string | number; nb_folders: string | number; nb_files: string | number }>(
    await ctx.db.execute(sql`
      SELECT t.id,
        (SELECT count(*) FROM folders f WHERE f.trash_id = t.id AND f.id <> t.folder_id) AS nb_folders,
        (SELECT count(*) FROM files x WHERE x.trash_id = t.id) AS nb_files,
        (SELECT coalesce(sum(v.size), 0) FROM files x JOIN file_versions v ON v.file_id = x.id AND v.deleted_at IS NULL
          WHERE x.trash_id = t.id) AS size
      FROM trash_items t WHERE t.id = ANY(${idArray(itemIds)})`),
  );
  return new Map(found.map((r) => [Number(r.id), { size: Number(r.size), nb_folders: Number(r.nb_folders), nb_files: Number(r.nb_files) }]));
}

/** "/a/b/c" for each original parent (trashed or not), skipping folders the caller cannot browse. */
async function loadPlaceNames(ctx: AuthedCtx, parentIds: number[]): Promise<Map<number, string>> {
  if (parentIds.length === 0) return new Map();
  const parents = await ctx.db.select({ id: folders.id, path: folders.path }).from(folders).where(idIn(folders.id, [...new Set(parentIds)]));
  const chainIds = [...new Set(parents.flatMap((p) => [...p.path, p.id]))];
  if (chainIds.length === 0) return new Map();
  const [named, rights] = await Promise.all([
    ctx.db.select({ id: folders.id, name: folders.name }).from(folders).where(idIn(folders.id, chainIds)),
    resolveRights(ctx.db, ctx.actor.user, chainIds),
  ]);
  const names = new Map(named.filter((f) => rights.get(f.id)?.browse).map((f) => [f.id, f.name]));
  return new Map(parents.map((p) => [p.id, `/${[...p.path, p.id].flatMap((id) => names.get(id) ?? []).join("/")}`]));
}
