import "server-only";
import { and, asc, count, eq, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { fileLocks, fileVersions, files, folders, shareRoots, shares, users, type FileRow, type FileVersion, type Folder, type ShareRow, type User } from "@/db/schema";
import type { ShareContentJson, ShareRootInput } from "@/lib/contracts/shares";
import { AppError } from "../errors";
import { getFileOrThrow } from "../files/get-file";
import { getFolderOrThrow } from "../folders/get-folder";
import { idArray } from "../folders/id-array";
import { loadFolderStats, type FolderStats } from "../folders/folder-stats";
import { loadLocks, serializeLock } from "../locks/serialize-lock";
import { resolveRights } from "../rights/resolve-rights";
import { fileTypeOf } from "../previews/file-type";
import { loadOwnerNames } from "../users/owner-names";
import { shareCans } from "./share-flags";

export type SharedFile = { file: FileRow; version: FileVersion };
export type SharedItems = { folders: Folder[]; files: SharedFile[] };
type LockRow = typeof fileLocks.$inferSelect;
export type StoredRoot = { entityType: 0 | 1; objectId: number };

/**
 * The roots a share will expose, checked for the caller's share right on each one's folder;
 * a file is named by any of its version ids and stored as the logical file. Duplicates collapse.
 */
export async function resolveRootsForShare(db: DbOrTx, user: Pick<User, "id" | "role">, inputs: ShareRootInput[]): Promise<StoredRoot[]> {
  const seen = new Map<string, StoredRoot>();
  for (const input of inputs) {
    const root: StoredRoot =
      input.entity_type === 0
        ? { entityType: 0, objectId: (await getFolderOrThrow(db, user, input.id, "share")).folder.id }
        : { entityType: 1, objectId: (await getFileOrThrow(db, user, input.id, "share")).file.id };
    seen.set(`${root.entityType}:${root.objectId}`, root);
  }
  return [...seen.values()];
}

/**
 * The live roots of a share (trashed or deleted ones are skipped, not shown as broken). A share
 * serves on its owner's behalf: roots in folders the owner may no longer share are left out too.
 */
export async function loadRootItems(db: DbOrTx, shareOrId: Pick<ShareRow, "id" | "ownerId"> | number): Promise<SharedItems> {
  const share = typeof shareOrId === "number" ? (await db.select({ id: shares.id, ownerId: shares.ownerId }).from(shares).where(eq(shares.id, shareOrId)).limit(1))[0] : shareOrId;
  if (!share) return { folders: [], files: [] };
  return (await loadRootItemsOfShares(db, [share])).get(share.id)!;
}

/**
 * The live roots of several shares, by share id, in a bounded number of queries: the roots, the
 * live folders, the live files, the owners, then one rights resolution per distinct owner.
 */
export async function loadRootItemsOfShares(db: DbOrTx, list: Pick<ShareRow, "id" | "ownerId">[]): Promise<Map<number, SharedItems>> {
  const result = new Map<number, SharedItems>(list.map((s) => [s.id, { folders: [], files: [] }]));
  if (list.length === 0) return result;
  const roots = await db.select().from(shareRoots).where(inArray(shareRoots.shareId, [...result.keys()])).orderBy(asc(shareRoots.id));
  const folderIds = [...new Set(roots.filter((r) => r.entityType === 0).map((r) => r.objectId))];
  const fileIds = [...new Set(roots.filter((r) => r.entityType === 1).map((r) => r.objectId))];
  const [liveFolders, liveFiles] = await Promise.all([
    folderIds.length ? db.select().from(folders).where(and(inArray(folders.id, folderIds), isNull(folders.deletedAt))) : [],
    fileIds.length ? liveFilesWhere(db, inArray(files.id, fileIds)) : [],
  ]);
  const folderById = new Map(liveFolders.map((f) => [f.id, f]));
  const fileById = new Map(liveFiles.map((f) => [f.file.id, f]));
  const ownerOf = new Map(list.map((s) => [s.id, s.ownerId]));
  // The folders each owner must still be able to share: the folder roots and the files' folders.
  const wanted = new Map<number, Set<number>>();
  for (const root of roots) {
    const folderId = root.entityType === 0 ? folderById.get(root.objectId)?.id : fileById.get(root.objectId)?.file.folderId;
    if (folderId === undefined) continue;
    const ownerId = ownerOf.get(root.shareId)!;
    wanted.set(ownerId, (wanted.get(ownerId) ?? new Set()).add(folderId));
  }
  const sharable = await stillSharable(db, wanted);
  for (const root of roots) {
    const items = result.get(root.shareId)!;
    const allowed = sharable.get(ownerOf.get(root.shareId)!);
    if (root.entityType === 0) {
      const folder = folderById.get(root.objectId);
      if (folder && allowed?.has(folder.id) && !items.folders.includes(folder)) items.folders.push(folder);
    } else {
      const file = fileById.get(root.objectId);
      if (file && allowed?.has(file.file.folderId) && !items.files.includes(file)) items.files.push(file);
    }
  }
  return result;
}

/** For each owner, the folders among those asked where they still have the share right. */
async function stillSharable(db: DbOrTx, wanted: Map<number, Set<number>>): Promise<Map<number, Set<number>>> {
  const result = new Map<number, Set<number>>();
  if (wanted.size === 0) return result;
  const owners = await db.select({ id: users.id, role: users.role }).from(users).where(inArray(users.id, [...wanted.keys()]));
  await Promise.all(
    owners.map(async (owner) => {
      const folderIds = [...wanted.get(owner.id)!];
      const rights = await resolveRights(db, owner, folderIds);
      result.set(owner.id, new Set(folderIds.filter((id) => rights.get(id)?.share)));
    }),
  );
  return result;
}

/** One page of the live subfolders then files of a folder, by name, with the total of both. */
export async function loadFolderItems(db: DbOrTx, folderId: number, page: { offset_start: number; nb_objects: number }): Promise<SharedItems & { total: number }> {
  const folderWhere = and(eq(folders.parentId, folderId), isNull(folders.deletedAt));
  const [[nFolders], [nFiles]] = await Promise.all([
    db.select({ n: count() }).from(folders).where(folderWhere),
    db.select({ n: count() }).from(files).innerJoin(fileVersions, eq(fileVersions.id, files.currentVersionId)).where(and(eq(files.folderId, folderId), isNull(files.deletedAt), isNull(fileVersions.deletedAt))),
  ]);
  const folderCount = Number(nFolders.n);
  const subfolders =
    page.offset_start < folderCount
      ? await db.select().from(folders).where(folderWhere).orderBy(asc(folders.name), asc(folders.id)).limit(page.nb_objects).offset(page.offset_start)
      : [];
  const fileLimit = page.nb_objects - subfolders.length;
  const contained = fileLimit > 0 ? await liveFilesWhere(db, eq(files.folderId, folderId), { limit: fileLimit, offset: Math.max(0, page.offset_start - folderCount) }) : [];
  return { folders: subfolders, files: contained, total: folderCount + Number(nFiles.n) };
}

async function liveFilesWhere(db: DbOrTx, condition: SQL, page?: { limit: number; offset: number }): Promise<SharedFile[]> {
  const query = db
    .select({ file: files, version: fileVersions })
    .from(files)
    .innerJoin(fileVersions, eq(fileVersions.id, files.currentVersionId))
    .innerJoin(folders, eq(folders.id, files.folderId))
    .where(and(condition, isNull(files.deletedAt), isNull(fileVersions.deletedAt), isNull(folders.deletedAt)))
    .orderBy(asc(files.name), asc(files.id));
  return page ? query.limit(page.limit).offset(page.offset) : query;
}

async function liveRootFolderIds(db: DbOrTx, share: Pick<ShareRow, "id" | "ownerId">): Promise<number[]> {
  return (await loadRootItems(db, share)).folders.map((f) => f.id);
}

/** A live folder at or below one of the share's folder roots (its materialised path says so); else 404. */
export async function getSharedFolderOrThrow(db: DbOrTx, share: ShareRow, folderId: number): Promise<{ folder: Folder; isRoot: boolean }> {
  const rootIds = await liveRootFolderIds(db, share);
  if (rootIds.length > 0) {
    const [folder] = await db
      .select()
      .from(folders)
      .where(and(eq(folders.id, folderId), isNull(folders.deletedAt), or(inArray(folders.id, rootIds), sql`${folders.path} && ${idArray(rootIds)}`)))
      .limit(1);
    if (folder) return { folder, isRoot: rootIds.includes(folder.id) };
  }
  throw new AppError("not_found", "Folder not found in this share");
}

/**
 * A live file the share exposes, named by GUID or by File id (any version id; its current
 * version is served): a file root, or a file in a shared folder's subtree. Else 404.
 */
export async function getSharedFileOrThrow(db: DbOrTx, share: ShareRow, by: { guid: string } | { versionId: number }): Promise<SharedFile & { folder: Folder }> {
  const which =
    "guid" in by
      ? eq(files.guid, by.guid)
      : sql`${files.id} = (SELECT ${fileVersions.fileId} FROM ${fileVersions} WHERE ${fileVersions.id} = ${by.versionId})`;
  const [found] = await db
    .select({ file: files, version: fileVersions, folder: folders })
    .from(files)
    .innerJoin(fileVersions, eq(fileVersions.id, files.currentVersionId))
    .innerJoin(folders, eq(folders.id, files.folderId))
    .where(and(which, isNull(files.deletedAt), isNull(fileVersions.deletedAt), isNull(folders.deletedAt)))
    .limit(1);
  if (found) {
    const roots = await loadRootItems(db, share);
    if (roots.files.some((f) => f.file.id === found.file.id)) return found;
    if (roots.folders.some(({ id }) => id === found.folder.id || found.folder.path.includes(id))) return found;
  }
  throw new AppError("not_found", "File not found in this share");
}

/** What serialising share items needs beyond the rows: folder sizes, locks and lock owners' names. */
export type ShareItemDetails = { stats: Map<number, FolderStats>; locks: Map<number, LockRow>; names: Map<number, string> };

/** The details of many items at once (three queries, whatever the count). */
export async function loadShareItemDetails(db: DbOrTx, items: SharedItems[]): Promise<ShareItemDetails> {
  const [stats, locks] = await Promise.all([
    loadFolderStats(db, items.flatMap((i) => i.folders.map((f) => f.id))),
    loadLocks(db, items.flatMap((i) => i.files.map((f) => f.file.id))),
  ]);
  const names = await loadOwnerNames(db, [...locks.values()].map((l) => l.ownerId));
  return { stats, locks, names };
}

/**
 * The contract's Share content. Roots show parent_id 0: a visitor never learns the ids of the
 * owner's folders above what was shared.
 */
export async function presentShareItems(db: DbOrTx, share: Pick<ShareRow, "id" | "flags">, items: SharedItems, asRoots: boolean): Promise<ShareContentJson[]> {
  return shareItemsJson(share, items, await loadShareItemDetails(db, [items]), asRoots);
}

/** Share content from rows and their loaded details (no query). */
export function shareItemsJson(share: Pick<ShareRow, "id" | "flags">, items: SharedItems, { stats, locks, names }: ShareItemDetails, asRoots: boolean): ShareContentJson[] {
  const cans = shareCans(share.flags);
  const folderJson = items.folders.map(
    (folder): ShareContentJson => ({
      id: folder.id,
      entity_type: 0,
      share_id: share.id,
      name: folder.name,
      size: stats.get(folder.id)?.size ?? 0,
      parent_id: asRoots ? 0 : (folder.parentId ?? 0),
      is_file: false,
      ...cans,
    }),
  );
  const fileJson = items.files.map(({ file, version }): ShareContentJson => {
    const lock = locks.get(file.id);
    return {
      id: version.id,
      entity_type: 1,
      share_id: share.id,
      guid: file.guid,
      name: file.name,
      extension: extensionOf(file.name),
      file_type: fileTypeOf(version.mime, file.name),
      mime: version.mime,
      lock: lock ? serializeLock(file, lock, 0, names.get(lock.ownerId) ?? "") : null,
      size: version.size,
      parent_id: asRoots ? 0 : file.folderId,
      is_file: true,
      ...cans,
    };
  });
  return [...folderJson, ...fileJson];
}

const extensionOf = (name: string) => {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
};
