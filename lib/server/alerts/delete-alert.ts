import "server-only";
import { inArray } from "drizzle-orm";
import { alerts } from "@/db/schema";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { resolveRightsMany } from "../rights/resolve-many";
import { assertMayManage, getAlertOrThrow, policyFor } from "./alert-access";
import { subtreeAlerts } from "./subtree-alerts";

/**
 * DELETE /alert/(alertId): anyone may stop following a folder; removing someone else's or a
 * group's alert needs what setting it needs. `recursive` also removes the target's alerts on
 * every subfolder, under the same rule there. Pending digest lines of removed alerts go with
 * them (foreign key), so nothing is mailed about a folder no longer followed.
 */
export async function deleteAlert(ctx: AuthedCtx, alertId: number, options: { recursive: boolean }): Promise<void> {
  const user = ctx.actor.user;
  await ctx.db.transaction(async (tx) => {
    const { alert, folder, rights } = await getAlertOrThrow(tx, user, alertId);
    const policy = await policyFor(tx, user, alert.targetId);
    assertMayManage(policy, rights, "remove");
    const below = options.recursive ? await subtreeAlerts(tx, alert.folderId, alert.targetId) : [];
    if (below.length > 0) {
      const held = await resolveRightsMany(tx, user, below.map((a) => a.folderId));
      for (const a of below) assertMayManage(policy, held.get(a.folderId)!, "remove", "a subfolder");
    }
    await tx.delete(alerts).where(inArray(alerts.id, [alert.id, ...below.map((a) => a.id)]));
    await writeLog(tx, { actor: user, request: ctx.request }, {
      type: "ADMLLOG_DELETE",
      message: `Removed the alert of ${alert.targetId} on folder ${folder.name}${below.length ? ` and ${below.length} on subfolders` : ""}`,
      objectType: "alert",
      objectId: alert.id,
      object: folder.name,
    });
  });
}
