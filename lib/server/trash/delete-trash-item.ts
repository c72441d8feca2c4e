import "server-only";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { forbidden } from "../errors";
import { getTrashItemOrThrow } from "./get-trash-item";
import { purgeTrashItem } from "./purge";

/**
 * DELETE /trash/(trashId): removes the item's content for good (its blobs are collected later).
 * Its owner's or an administrator's to do: whoever deleted it gets a 403 (the owner keeps it).
 */
export async function deleteTrashItem(ctx: AuthedCtx, trashId: number): Promise<void> {
  const user = ctx.actor.user;
  await ctx.db.transaction(async (tx) => {
    const { item, isOwner } = await getTrashItemOrThrow(tx, user, trashId, { forUpdate: true });
    if (!isOwner) throw forbidden("Only its owner or an administrator may delete this trash item for good");
    await purgeTrashItem(tx, item);
    await writeLog(tx, { actor: user, request: ctx.request }, {
      type: "ADMLLOG_DELETE",
      message: `Emptied ${item.name || "an item"} from the trash`,
      objectType: item.folderId === null ? "file" : "folder",
      objectId: item.folderId ?? item.fileId ?? item.id,
      object: item.name,
    });
  });
}
