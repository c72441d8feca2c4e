import "server-only";
import { eq } from "drizzle-orm";
import { trashItems } from "@/db/schema";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { purgeTrashItem } from "./purge";

/**
 * DELETE /trashes: empties the caller's trash; administrators may name another user, or `all`
 * for every user's trash. Items are purged in one transaction: the trash is empty or untouched.
 */
export async function emptyTrash(ctx: AuthedCtx, target: number | "all" | undefined): Promise<void> {
  const user = ctx.actor.user;
  const ownerId = target ?? user.id;
  if (ownerId !== user.id && user.role !== 3) throw new AppError("forbidden", "Only administrators may empty another user's trash");
  await ctx.db.transaction(async (tx) => {
    const query = tx.select().from(trashItems);
    const items = await (ownerId === "all" ? query : query.where(eq(trashItems.ownerId, ownerId))).for("update");
    for (const item of items) await purgeTrashItem(tx, item);
    await writeLog(tx, { actor: user, request: ctx.request }, {
      type: "ADMLLOG_DELETE",
      message: ownerId === "all" ? `Emptied every trash (${items.length} items)` : `Emptied the trash of user ${ownerId} (${items.length} items)`,
      objectType: "trash",
      objectId: ownerId,
    });
  });
}
