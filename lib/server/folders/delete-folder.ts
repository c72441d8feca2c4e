import "server-only";
import { eq, sql } from "drizzle-orm";
import { fileLocks, folders } from "@/db/schema";
import type { TrashItemResponse } from "@/lib/contracts/trash";
import { recordFolderChange } from "../alerts/record-folder-change";
import { writeLog } from "../audit/write-log";
import { getPlatformConfig } from "../config/platform-config";
import { isAdmin, type AuthedCtx } from "../context";
import { forbidden } from "../errors";
import { resolveFolderRights } from "../rights/resolve-rights";
import { presentTrashItems } from "../trash/present-trash-items";
import { purgeFolderTree } from "../trash/purge";
import { sendFolderToTrash } from "../trash/send-to-trash";
import { isPrivateRoot } from "./folder-names";
import { getFolderOrThrow, lockFolderRow } from "./get-folder";
import { assertNoForeignLocks } from "./move-folder";

/**
 * DELETE /folder/(folderId). `trash` 1 (default) sends the folder and its subtree to the trash and
 * answers the Trash item (200); 0, or the platform's trash feature off, deletes for good (204).
 * Needs the delete right in the parent folder, or owning the folder; company top folders need an
 * administrator or their owner. A private space root is never deleted here (deleting the user
 * does it). 423 when a file inside is locked by someone else.
 */
export async function deleteFolder(ctx: AuthedCtx, folderId: number, options: { trash: boolean }): Promise<TrashItemResponse | undefined> {
  const user = ctx.actor.user;
  const useTrash = options.trash && (await getPlatformConfig(ctx.db)).features.trash;
  return ctx.db.transaction(async (tx) => {
    const { folder } = await getFolderOrThrow(tx, user, folderId, "browse");
    if (isPrivateRoot(folder)) throw forbidden("A private space root cannot be deleted");
    if (!isAdmin(user) && folder.ownerId !== user.id) {
      const parent = folder.parentId ? await resolveFolderRights(tx, user, folder.parentId) : null;
      if (!parent?.delete) throw forbidden("Deleting a folder needs the delete right in its parent folder");
    }
    await lockFolderRow(tx, folder.id);
    await assertNoForeignLocks(tx, folder.id, user.id);
    await recordFolderChange(tx, ctx, { kind: "deleted", objectType: "folder", objectId: folder.id, objectName: folder.name, folderId: folder.parentId ?? folder.id });
    if (folder.parentId !== null) await tx.update(folders).set({ modifiedAt: new Date() }).where(eq(folders.id, folder.parentId));
    await writeLog(tx, { actor: user, request: ctx.request }, {
      type: "ADMLLOG_DELETE",
      message: useTrash ? `Sent folder ${folder.name} to the trash` : `Deleted folder ${folder.name} for good`,
      objectType: "folder",
      objectId: folder.id,
      object: folder.name,
    });
    if (!useTrash) {
      await purgeFolderTree(tx, folder.id);
      return undefined;
    }
    const item = await sendFolderToTrash(tx, folder, { deletedBy: user.id });
    // Trashed files can no longer be edited: the caller's own locks would only block a restore.
    await tx.delete(fileLocks).where(sql`${fileLocks.fileId} IN (SELECT id FROM files WHERE trash_id = ${item.id})`);
    const [json] = await presentTrashItems({ ...ctx, db: tx }, [item]);
    return json;
  });
}
