import { and, count, eq, max } from "drizzle-orm";
import { trashItems, trashPurges } from "@/db/schema";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { enqueueJob } from "../jobs/enqueue";
import { notBeingPurged } from "./purging";

/**
 * DELETE /trashes: empties the caller's trash; administrators may name another user, or `all`
 * for every user's trash. One row (trash_purges) makes every current item of the trash read as
 * gone at once, whatever its size; the job trash.empty then purges them in bounded batches.
 */
export async function emptyTrash(ctx: AuthedCtx, target: number | "all" | undefined): Promise<void> {
  const user = ctx.actor.user;
  const ownerId = target ?? user.id;
  if (ownerId !== user.id && user.role !== 3) throw new AppError("forbidden", "Only administrators may empty another user's trash");
  await ctx.db.transaction(async (tx) => {
    const mine = ownerId === "all" ? notBeingPurged : and(eq(trashItems.ownerId, ownerId), notBeingPurged);
    const [{ items, upTo }] = await tx.select({ items: count(), upTo: max(trashItems.id) }).from(trashItems).where(mine);
    if (upTo !== null) {
      await tx.insert(trashPurges).values({ ownerId: ownerId === "all" ? null : ownerId, upToId: upTo });
      await enqueueJob(tx, "trash.empty", {}, { dedupeKey: "trash.empty" });
    }
    await writeLog(tx, { actor: user, request: ctx.request }, {
      type: "ADMLLOG_DELETE",
      message: ownerId === "all" ? `Emptied every trash (${items} items)` : `Emptied the trash of user ${ownerId} (${items} items)`,
      objectType: "trash",
      objectId: ownerId,
    });
  });
}
