import "server-only";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Tx } from "@/db";
import { fileVersions, files, folders, trashItems, users, type FileRow, type Folder, type TrashItem } from "@/db/schema";
import type { RestoreTrashBody } from "@/lib/contracts/trash";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { assertDestinationQuota, fileBytes, folderTreeBytes } from "../files/assert-destination-quota";
import { findLiveFileIdByName } from "../files/live-files";
import { firstFreeName, sameName } from "../files/names";
import { presentFiles, type FileJson } from "../files/present-files";
import { getFolderOrThrow } from "../folders/get-folder";
import { presentFolders, type FolderJson } from "../folders/present-folders";
import { assertNotLockedByOther } from "../locks/assert-not-locked";
import { resolveFolderRights } from "../rights/resolve-rights";
import { assertMayTakeFileOut, assertMayTakeFolderOut } from "../rights/take-out";
import { getTrashItemOrThrow } from "./get-trash-item";
import { refreshCurrentVersion } from "../files/live-files";

type Place = Folder | "top";

/**
 * PUT /trash/(trashId): makes the item live again, by default where it came from, or in
 * `folder_id` (write right there). When the original folder is gone or itself in the trash, the
 * item goes to the root of its trash owner's private space, else 409 asks for `folder_id`. A name
 * taken meanwhile gets a numbered suffix. Trashed content always counted in quotas; only entering
 * another folder quota is checked (507). Trashed versions return to their file.
 * Restoring anywhere but where it came from takes it out of its place as a move does: the rights
 * of a move there (read, download, edit, delete; on a folder's whole subtree, read and download),
 * which its owner holds; so the delete right alone never yields the bytes (issue 25).
 */
export async function restoreTrashItem(ctx: AuthedCtx, trashId: number, body: RestoreTrashBody): Promise<FileJson | FolderJson> {
  const user = ctx.actor.user;
  return ctx.db.transaction(async (tx) => {
    const txCtx = { ...ctx, db: tx };
    const { item } = await getTrashItemOrThrow(tx, user, trashId, { forUpdate: true });
    let result: FileJson | FolderJson;
    if (item.folderId !== null) {
      const folder = await restoreFolder(txCtx, item, item.folderId, body.folder_id);
      [result] = await presentFolders(txCtx, [folder], "default");
    } else {
      const file = await loadFile(tx, item);
      const restored = item.versionIds?.length ? await restoreVersions(txCtx, item, file, body.folder_id) : await restoreFile(txCtx, item, file, body.folder_id);
      [result] = await presentFiles(txCtx, [restored], "default");
    }
    await tx.delete(trashItems).where(eq(trashItems.id, item.id));
    await writeLog(tx, { actor: user, request: ctx.request }, {
      type: "ADMLLOG_RESTORE",
      message: `Restored ${item.name || "an item"} from the trash`,
      objectType: item.folderId === null ? "file" : "folder",
      objectId: result.id,
      object: result.name,
    });
    return result;
  });
}

async function restoreFolder(ctx: AuthedCtx & { db: Tx }, item: TrashItem, folderId: number, requested: number | undefined): Promise<Folder> {
  const tx = ctx.db;
  const user = ctx.actor.user;
  const [folder] = await tx.select().from(folders).where(eq(folders.id, folderId));
  if (!folder) throw new AppError("not_found", "The content of this trash item no longer exists");
  const place = await findPlace(ctx, item, requested, false);
  if (place !== "top" && place.id !== item.originalParentId) await assertMayTakeFolderOut(tx, user, folder, "Restoring a folder elsewhere", { trashId: item.id });
  if (place === "top" && user.role !== 3 && folder.ownerId !== user.id) {
    throw new AppError("forbidden", "Only administrators may restore a folder at the top level");
  }
  if (place !== "top" && (place.id === folder.id || place.path.includes(folder.id))) {
    throw new AppError("conflict", "A folder cannot be restored inside itself");
  }
  const prefix = place === "top" ? [] : [...place.path, place.id];
  const name = place === "top" ? folder.name : await firstFreeName(folder.name, (n) => folderNameTaken(tx, place.id, n), false);
  const subtree = sql`(${folders.id} = ${folder.id} OR ${folders.path} @> ARRAY[${folder.id}::int])`;
  if (place !== "top") await assertDestinationQuota(tx, folder, place, await folderTreeBytes(tx, folder.id));
  if (prefix.join() !== folder.path.join()) {
    // Re-root the subtree's materialised paths (and its space and owner, as a move does) on the new parent.
    await tx.execute(sql`
      UPDATE folders SET path = ${`{${prefix.join(",")}}`}::int[] || path[${folder.path.length + 1}:cardinality(path)],
        space = ${place === "top" ? folder.space : place.space},
        owner_id = ${place === "top" ? folder.ownerId : place.ownerId}
      WHERE ${subtree}`);
  }
  // The item's own folder too: older private spaces of deleted users were trashed without trash_id.
  await tx.update(folders).set({ deletedAt: null, trashId: null }).where(sql`${folders.trashId} = ${item.id} OR ${folders.id} = ${folder.id}`);
  await tx.update(files).set({ deletedAt: null, trashId: null }).where(eq(files.trashId, item.id));
  const [restored] = await tx.update(folders).set({ parentId: place === "top" ? null : place.id, name }).where(eq(folders.id, folder.id)).returning();
  if (place !== "top") await tx.update(folders).set({ modifiedAt: new Date() }).where(eq(folders.id, place.id));
  return restored;
}

async function restoreFile(ctx: AuthedCtx & { db: Tx }, item: TrashItem, file: FileRow, requested: number | undefined) {
  const tx = ctx.db;
  if (file.trashId !== item.id) throw new AppError("conflict", "This file is no longer held by this trash item");
  const place = await findPlace(ctx, item, requested, true);
  if (place === "top") throw new AppError("invalid_request", "A file must be restored into a folder", [{ path: "folder_id", message: "a folder id" }]);
  if (place.id !== file.folderId) assertMayTakeFileOut(await resolveFolderRights(tx, ctx.actor.user, file.folderId), "Restoring a file elsewhere");
  const name = await firstFreeName(file.name, (n) => fileNameTaken(tx, place.id, n));
  const [source] = await tx.select().from(folders).where(eq(folders.id, file.folderId));
  await assertDestinationQuota(tx, source ?? null, place, await fileBytes(tx, file.id));
  const [restored] = await tx.update(files).set({ folderId: place.id, name, deletedAt: null, trashId: null }).where(eq(files.id, file.id)).returning();
  await tx.update(folders).set({ modifiedAt: new Date() }).where(eq(folders.id, place.id));
  return withCurrentVersion(tx, restored, place);
}

/** Versions go back into their file, which must be live; that needs edit there, and no one else's lock. */
async function restoreVersions(ctx: AuthedCtx & { db: Tx }, item: TrashItem, file: FileRow, requested: number | undefined) {
  const tx = ctx.db;
  const user = ctx.actor.user;
  if (file.deletedAt) throw new AppError("conflict", "The file of these versions is in the trash: restore the file first");
  if (requested !== undefined && requested !== file.folderId) {
    throw new AppError("invalid_request", "Versions return to their file; folder_id cannot move them", [{ path: "folder_id", message: "not applicable to versions" }]);
  }
  const { folder, rights } = await getFolderOrThrow(tx, user, file.folderId, "browse");
  if (!rights.edit) throw new AppError("forbidden", "Restoring versions needs the edit right in the file's folder");
  await tx.select({ id: files.id }).from(files).where(eq(files.id, file.id)).for("update");
  await assertNotLockedByOther(tx, file.id, user.id);
  await tx.update(fileVersions).set({ deletedAt: null }).where(and(eq(fileVersions.fileId, file.id), sql`${fileVersions.id} = ANY(${`{${item.versionIds!.join(",")}}`}::int[])`));
  await refreshCurrentVersion(tx, file.id);
  const [reloaded] = await tx.select().from(files).where(eq(files.id, file.id));
  return withCurrentVersion(tx, reloaded, folder);
}

/**
 * Where the item goes: `folder_id` (0 = the top level, folders only), else the original folder
 * when it is live, else the root of the trash owner's private space. Write right needed there.
 */
async function findPlace(ctx: AuthedCtx & { db: Tx }, item: TrashItem, requested: number | undefined, isFile: boolean): Promise<Place> {
  const tx = ctx.db;
  const user = ctx.actor.user;
  if (requested === 0) {
    if (!isFile && user.role !== 3) throw new AppError("forbidden", "Only administrators may restore a folder at the top level");
    return "top";
  }
  if (requested !== undefined) return writableFolder(ctx, requested);
  if (item.originalParentId === null && !isFile) return "top";
  if (item.originalParentId !== null) {
    const [parent] = await tx.select().from(folders).where(eq(folders.id, item.originalParentId));
    if (parent && parent.deletedAt === null) {
      const rights = await resolveFolderRights(tx, user, parent.id);
      if (!rights.write) throw new AppError("forbidden", "Restoring needs the write right in the original folder; give folder_id to restore elsewhere");
      return parent;
    }
  }
  const [owner] = await tx.select({ rootId: users.privateRootId }).from(users).where(eq(users.id, item.ownerId));
  const [root] = owner?.rootId ? await tx.select().from(folders).where(and(eq(folders.id, owner.rootId), isNull(folders.deletedAt))) : [];
  if (root && (await resolveFolderRights(tx, user, root.id)).write) return root;
  throw new AppError("conflict", "The original folder no longer exists; give folder_id to restore this item elsewhere");
}

async function writableFolder(ctx: AuthedCtx & { db: Tx }, folderId: number): Promise<Folder> {
  const { folder, rights } = await getFolderOrThrow(ctx.db, ctx.actor.user, folderId, "browse");
  if (!rights.write) throw new AppError("forbidden", "Restoring here needs the write right in the destination folder");
  return folder;
}

async function loadFile(tx: Tx, item: TrashItem): Promise<FileRow> {
  const [file] = await tx.select().from(files).where(eq(files.id, item.fileId!));
  if (!file) throw new AppError("not_found", "The content of this trash item no longer exists");
  return file;
}

async function withCurrentVersion(tx: Tx, file: FileRow, folder: Folder) {
  const [version] = await tx.select().from(fileVersions).where(eq(fileVersions.id, file.currentVersionId!));
  if (!version) throw new AppError("not_found", "This file has no version left");
  return { file, version, folder };
}

async function fileNameTaken(tx: Tx, folderId: number, name: string) {
  return (await findLiveFileIdByName(tx, folderId, name)) !== null;
}

async function folderNameTaken(tx: Tx, parentId: number, name: string) {
  const found = await tx.select({ id: folders.id }).from(folders).where(and(eq(folders.parentId, parentId), isNull(folders.deletedAt), sameName(folders.nameKey, name))).limit(1);
  return found.length > 0;
}
