import { sql } from "drizzle-orm";
import { trashItems } from "@/db/schema";

/**
 * True for the trash items no emptying covers (trash_purges: an owner's items, or everyone's when
 * owner_id is null, up to an id). Items being purged in the background read as already gone.
 */
export const notBeingPurged = sql`NOT EXISTS (
  SELECT 1 FROM trash_purges p
  WHERE (p.owner_id IS NULL OR p.owner_id = ${trashItems.ownerId}) AND ${trashItems.id} <= p.up_to_id)`;

/**
 * The same for one owner's trash as a range: items above the highest id an emptying covers. An
 * uncorrelated subquery, evaluated once, so a listing stays a range scan of trash_items.
 */
export const aboveEmptied = (ownerId: number) =>
  sql`${trashItems.id} > (SELECT coalesce(max(p.up_to_id), 0) FROM trash_purges p WHERE p.owner_id IS NULL OR p.owner_id = ${ownerId})`;
