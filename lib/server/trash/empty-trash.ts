import "server-only";
import { and, count, eq, gt, max } from "drizzle-orm";
import { trashItems, trashPurges } from "@/db/schema";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { enqueueJob } from "../jobs/enqueue";
import { emptiedUpTo, notBeingPurged } from "./purging";

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
    // The watermark read first as a constant: with the NOT EXISTS inline the planner tested it item
    // by item (0.9 s for a trash of 100,000 items, against a range scan of the owner's index).
    const mine = ownerId === "all" ? notBeingPurged : and(eq(trashItems.ownerId, ownerId), gt(trashItems.id, await emptiedUpTo(tx, ownerId)));
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
