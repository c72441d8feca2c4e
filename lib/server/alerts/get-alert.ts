import "server-only";
import type { AlertResponse } from "@/lib/contracts/alerts";
import type { AuthedCtx } from "../context";
import { getAlertOrThrow } from "./alert-access";
import { presentAlert } from "./present-alerts";

/** GET /alert/(alertId): for those who see it (see mayView); 404 otherwise. */
export async function getAlert(ctx: AuthedCtx, alertId: number): Promise<AlertResponse> {
  const { alert } = await getAlertOrThrow(ctx.db, ctx.actor.user, alertId);
  return presentAlert(ctx.db, alert);
}
