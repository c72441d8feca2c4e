import "server-only";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Tx } from "@/db";
import { folders, type Folder } from "@/db/schema";
import type { UpdateFolderBody } from "@/lib/contracts/folders";
import { writeLog } from "../audit/write-log";
import { isAdmin, type AuthedCtx } from "../context";
import { AppError, forbidden } from "../errors";
import { validateName } from "../files/names";
import type { Mode } from "../present/mode";
import { resolveFolderRights } from "../rights/resolve-rights";
import { assertMayTakeFolderOut } from "../rights/take-out";
import { findLiveChildFolder, isPrivateRoot, lockFolderName } from "./folder-names";
import { getFolderOrThrow, lockFolderRow } from "./get-folder";
import { assertMoveFitsQuota, assertNoForeignLocks, moveSubtree } from "./move-folder";
import { presentFolders } from "./present-folders";

type Actor = AuthedCtx["actor"]["user"];

/**
 * PUT /folder/(folderId): rename (`name`: edit right in the parent, or owner), move (`parent_id`:
 * read, download, edit and delete in the current parent, or owner, read and download on its whole
 * subtree, and write in the destination; never into its own subtree), `quota` and `purge_frequency` (administrators; `recursive` applies the purge
 * frequency to every subfolder). A private space root keeps its place; only administrators
 * rename it. 409 when the name is taken where the folder lands.
 */
export async function updateFolder(ctx: AuthedCtx, folderId: number, body: UpdateFolderBody, options: { recursive: boolean; mode: Mode }) {
  const user = ctx.actor.user;
  if ((body.quota !== undefined || body.purge_frequency !== undefined) && !isAdmin(user)) {
    throw forbidden("Only administrators change a folder's quota or purge frequency");
  }
  const updated = await ctx.db.transaction(async (tx) => {
    await getFolderOrThrow(tx, user, folderId, "browse");
    await lockFolderRow(tx, folderId);
    const [folder] = await tx.select().from(folders).where(and(eq(folders.id, folderId), isNull(folders.deletedAt)));
    if (!folder) throw new AppError("not_found", "Folder not found");
    const log = (message: string) => writeLog(tx, { actor: user, request: ctx.request }, { type: "ADMLLOG_UPDATE", message, objectType: "folder", objectId: folder.id, object: folder.name });

    const name = body.name === undefined ? folder.name : validateName(body.name);
    const renaming = name !== folder.name;
    const destId = body.parent_id === undefined ? folder.parentId : body.parent_id || null;
    const moving = destId !== folder.parentId;
    if (renaming) await assertMayRename(tx, user, folder);
    const dest = moving ? await getMoveDestination(tx, user, folder, destId) : undefined;
    if (renaming || moving) {
      await lockFolderName(tx, destId, name);
      if (!isPrivateRoot(folder) && (await findLiveChildFolder(tx, destId, name, folder.id))) {
        throw new AppError("conflict", `A folder named "${name}" already exists there`);
      }
    }
    const now = new Date();
    if (moving) {
      await assertNoForeignLocks(tx, folder.id, user.id);
      if (dest) await assertMoveFitsQuota(tx, folder, dest);
      await moveSubtree(tx, folder, dest ?? null, dest?.ownerId ?? user.id);
      await touch(tx, [folder.parentId, destId], now);
      await log(`Moved folder ${folder.name} to ${dest ? dest.name : "the top level"}`);
    }
    if (renaming) {
      await tx.update(folders).set({ name }).where(eq(folders.id, folder.id));
      if (!moving) await touch(tx, [folder.parentId], now);
      await log(`Renamed folder ${folder.name} to ${name}`);
    }
    if (body.quota !== undefined && body.quota !== folder.quota) {
      await tx.update(folders).set({ quota: body.quota }).where(eq(folders.id, folder.id));
      await log(`Set the quota of folder ${name} to ${body.quota}`);
    }
    if (body.purge_frequency !== undefined) {
      const scope = options.recursive ? sql`(${folders.id} = ${folder.id} OR (${folders.path} @> ARRAY[${folder.id}::int] AND ${folders.deletedAt} IS NULL))` : eq(folders.id, folder.id);
      await tx.update(folders).set({ purgeFrequency: body.purge_frequency }).where(scope);
      await log(`Set the purge frequency of folder ${name}${options.recursive ? " and its subfolders" : ""} to ${body.purge_frequency} days`);
    }
    const [after] = await tx.select().from(folders).where(eq(folders.id, folder.id));
    return after;
  });
  const [json] = await presentFolders(ctx, [updated], options.mode);
  return json;
}

/** Renaming needs the edit right in the parent, or owning the folder (administrators may do anything). */
async function assertMayRename(tx: Tx, user: Actor, folder: Folder) {
  if (isAdmin(user)) return;
  if (isPrivateRoot(folder)) throw forbidden("A private space root cannot be renamed");
  if (folder.ownerId === user.id) return;
  const parent = folder.parentId ? await resolveFolderRights(tx, user, folder.parentId) : null;
  if (!parent?.edit) throw forbidden("Renaming a folder needs the edit right in its parent folder");
}

/** The destination of a move, once the caller may take the folder out of its parent and put it there. */
async function getMoveDestination(tx: Tx, user: Actor, folder: Folder, destId: number | null): Promise<Folder | null> {
  if (isPrivateRoot(folder)) throw forbidden("A private space root cannot be moved");
  // The subtree takes the owner of its new tree: moving it is taking it, bytes included.
  await assertMayTakeFolderOut(tx, user, folder, "Moving a folder");
  if (destId === null) {
    if (!isAdmin(user)) throw forbidden("Only administrators put folders at the top level");
    return null;
  }
  const dest = await getFolderOrThrow(tx, user, destId, "browse");
  if (dest.folder.id === folder.id || dest.folder.path.includes(folder.id)) {
    throw new AppError("invalid_request", "A folder cannot be moved into itself or one of its subfolders", [{ path: "parent_id", message: "inside the moved folder" }]);
  }
  if (!dest.rights.write) throw forbidden("Moving a folder here needs the write right in the destination");
  return dest.folder;
}

async function touch(tx: Tx, ids: (number | null)[], now: Date) {
  for (const id of ids) if (id !== null) await tx.update(folders).set({ modifiedAt: now }).where(eq(folders.id, id));
}
