import "server-only";
import { and, eq } from "drizzle-orm";
import { alerts } from "@/db/schema";
import type { AlertResponse, CreateAlertBody } from "@/lib/contracts/alerts";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { getFolderOrThrow } from "../folders/get-folder";
import { assertTargetExists } from "../rights/right-access";
import { assertAlertTemplate, assertMayManage, policyFor } from "./alert-access";
import { presentAlert } from "./present-alerts";

/**
 * POST /alert: mails a user, or each member of a group, about changes in a folder and below it.
 * Following a folder yourself needs the read right; an alert for anyone else needs the share
 * right (or managing that user). There is one alert per folder and target: creating it again
 * updates the existing one with the fields given, makes it active again and answers it, so that
 * "follow this folder" can be sent twice safely.
 */
export async function createAlert(ctx: AuthedCtx, body: CreateAlertBody): Promise<AlertResponse> {
  const user = ctx.actor.user;
  return ctx.db.transaction(async (tx) => {
    const { folder, rights } = await getFolderOrThrow(tx, user, body.folder_id, "browse");
    await assertTargetExists(tx, body.target_id);
    assertMayManage(await policyFor(tx, user, body.target_id), rights, "set");
    const emailId = body.email === undefined ? undefined : await assertAlertTemplate(tx, user, body.email);
    const given = { emailId, expirationDate: body.expiration_date, active: true };

    const [existing] = await tx
      .select({ id: alerts.id })
      .from(alerts)
      .where(and(eq(alerts.folderId, folder.id), eq(alerts.targetId, body.target_id)))
      .for("update");
    const [alert] = existing
      ? await tx.update(alerts).set(given).where(eq(alerts.id, existing.id)).returning()
      : await tx.insert(alerts).values({ ...given, folderId: folder.id, targetId: body.target_id, ownerId: user.id }).returning();
    await writeLog(tx, { actor: user, request: ctx.request }, {
      type: existing ? "ADMLLOG_UPDATE" : "ADMLLOG_INSERT",
      message: `${existing ? "Renewed" : "Set"} an alert for ${body.target_id} on folder ${folder.name}`,
      objectType: "alert",
      objectId: alert.id,
      object: folder.name,
    });
    return presentAlert(tx, alert);
  });
}
