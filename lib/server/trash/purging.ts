import { eq, isNull, or, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { trashItems, trashPurges } from "@/db/schema";

/**
 * True for the trash items no emptying covers (trash_purges: an owner's items, or everyone's when
 * owner_id is null, up to an id). Items being purged in the background read as already gone.
 */
export const notBeingPurged = sql`NOT EXISTS (
  SELECT 1 FROM trash_purges p
  WHERE (p.owner_id IS NULL OR p.owner_id = ${trashItems.ownerId}) AND ${trashItems.id} <= p.up_to_id)`;

/**
 * The highest id an emptying of `ownerId`'s trash covers (0 when none): a listing keeps the items
 * above it. Read first as a constant, so the planner sees the listing as the range scan it is
 * (with the subquery inline it sorted 100,000 items instead: 0.5 s against 0.05 s).
 */
export async function emptiedUpTo(db: DbOrTx, ownerId: number): Promise<number> {
  const [row] = await db
    .select({ upTo: sql<number | string | null>`max(${trashPurges.upToId})` })
    .from(trashPurges)
    .where(or(isNull(trashPurges.ownerId), eq(trashPurges.ownerId, ownerId)));
  return Number(row?.upTo ?? 0);
}
