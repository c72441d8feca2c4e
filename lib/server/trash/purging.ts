import { sql } from "drizzle-orm";
import { trashItems } from "@/db/schema";

/**
 * True for the trash items no emptying covers (trash_purges: an owner's items, or everyone's when
 * owner_id is null, up to an id). Items being purged in the background read as already gone.
 */
export const notBeingPurged = sql`NOT EXISTS (
  SELECT 1 FROM trash_purges p
  WHERE (p.owner_id IS NULL OR p.owner_id = ${trashItems.ownerId}) AND ${trashItems.id} <= p.up_to_id)`;
