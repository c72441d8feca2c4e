import "server-only";
import { asc, eq, or, sql } from "drizzle-orm";
import { alerts } from "@/db/schema";
import type { AlertResponse } from "@/lib/contracts/alerts";
import type { AuthedCtx } from "../context";
import { getFolderOrThrow } from "../folders/get-folder";
import { resolveRightsMany } from "../rights/resolve-many";
import { groupIdsOf, mayView } from "./alert-access";
import { presentAlerts } from "./present-alerts";

/**
 * GET /alerts/(folderId): the alerts set on this folder (`recursive`: and on every live
 * subfolder), those the caller may see: with the share right on a folder all of its alerts,
 * otherwise the ones aimed at them or their groups, or set by them (see mayView).
 */
export async function listAlerts(ctx: AuthedCtx, folderId: number, options: { recursive: boolean }): Promise<AlertResponse[]> {
  const user = ctx.actor.user;
  const { folder, rights } = await getFolderOrThrow(ctx.db, user, folderId, "browse");
  const below = sql`${alerts.folderId} IN (SELECT id FROM folders WHERE path @> ARRAY[${folder.id}::int] AND deleted_at IS NULL)`;
  const found = await ctx.db
    .select()
    .from(alerts)
    .where(options.recursive ? or(eq(alerts.folderId, folder.id), below) : eq(alerts.folderId, folder.id))
    .orderBy(asc(alerts.folderId), asc(alerts.id));
  const held = await resolveRightsMany(ctx.db, user, found.map((a) => a.folderId).filter((id) => id !== folder.id));
  held.set(folder.id, rights);
  const groupIds = await groupIdsOf(ctx.db, user.id);
  return presentAlerts(ctx.db, found.filter((a) => mayView(a, user, held.get(a.folderId)!, groupIds)));
}
