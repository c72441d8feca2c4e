import "server-only";
import { eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { alerts, type AlertRow, type User } from "@/db/schema";
import type { AlertResponse, UpdateAlertBody } from "@/lib/contracts/alerts";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { resolveRightsMany } from "../rights/resolve-many";
import { assertAlertTemplate, assertMayManage, getAlertOrThrow, policyFor, type TargetPolicy } from "./alert-access";
import { presentAlert } from "./present-alerts";
import { subtreeAlerts } from "./subtree-alerts";

/**
 * PUT /alert/(alertId): changes the template, the expiration date or `active`; needs what
 * setting the alert needs (see assertMayManage). `recursive` applies the same change to the
 * target's alerts on every subfolder, where the caller must be allowed the same.
 */
export async function updateAlert(ctx: AuthedCtx, alertId: number, body: UpdateAlertBody, options: { recursive: boolean }): Promise<AlertResponse> {
  const user = ctx.actor.user;
  return ctx.db.transaction(async (tx) => {
    const { alert, folder, rights } = await getAlertOrThrow(tx, user, alertId);
    assertSameAlert(alert, body);
    const policy = await policyFor(tx, user, alert.targetId);
    assertMayManage(policy, rights, "set");
    const change = {
      emailId: body.email === undefined ? undefined : await assertAlertTemplate(tx, user, body.email),
      expirationDate: body.expiration_date,
      active: body.active,
    };
    const touched = Object.values(change).some((v) => v !== undefined);
    const [saved] = touched ? await tx.update(alerts).set(change).where(eq(alerts.id, alert.id)).returning() : [alert];
    const below = options.recursive && touched ? await updateBelow(tx, user, policy, alert, change) : 0;
    await writeLog(tx, { actor: user, request: ctx.request }, {
      type: "ADMLLOG_UPDATE",
      message: `Changed the alert of ${alert.targetId} on folder ${folder.name}${below ? ` (and ${below} on subfolders)` : ""}`,
      objectType: "alert",
      objectId: alert.id,
      object: folder.name,
    });
    return presentAlert(tx, saved);
  });
}

/** A client that PUTs back a whole Alert sends its folder and target: they may not differ. */
function assertSameAlert(alert: AlertRow, body: UpdateAlertBody) {
  const details = [
    ...(body.folder_id !== undefined && body.folder_id !== alert.folderId ? [{ path: "folder_id", message: "An alert cannot move: create one on the other folder" }] : []),
    ...(body.target_id !== undefined && body.target_id !== alert.targetId ? [{ path: "target_id", message: "An alert cannot change target: create one for the other target" }] : []),
  ];
  if (details.length) throw new AppError("invalid_request", "folder_id and target_id of an alert cannot change", details);
}

async function updateBelow(tx: DbOrTx, user: Pick<User, "id" | "role">, policy: TargetPolicy, alert: AlertRow, change: Partial<AlertRow>): Promise<number> {
  const found = await subtreeAlerts(tx, alert.folderId, alert.targetId);
  if (found.length === 0) return 0;
  const held = await resolveRightsMany(tx, user, found.map((a) => a.folderId));
  for (const a of found) assertMayManage(policy, held.get(a.folderId)!, "set", "a subfolder");
  await tx.update(alerts).set(change).where(inArray(alerts.id, found.map((a) => a.id)));
  return found.length;
}
