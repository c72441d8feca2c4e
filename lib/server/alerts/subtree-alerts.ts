import "server-only";
import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { alerts } from "@/db/schema";

/**
 * The target's alerts on every folder below `folderId` (trashed ones included, so that a
 * recursive removal is not undone by a restore). For `recursive` updates and deletions.
 */
export async function subtreeAlerts(db: DbOrTx, folderId: number, targetId: number) {
  return db
    .select({ id: alerts.id, folderId: alerts.folderId })
    .from(alerts)
    .where(and(eq(alerts.targetId, targetId), sql`${alerts.folderId} IN (SELECT id FROM folders WHERE path @> ARRAY[${folderId}::int])`));
}
