import "server-only";
import { and, eq } from "drizzle-orm";
import { notifications } from "@/db/schema";
import type { NotificationResponse } from "@/lib/contracts/notifications";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { presentNotifications } from "./present-notifications";

/** PUT /notification/(id) (issue 29): marks one of the caller's notifications read or unread; another user's is a 404. */
export async function updateNotification(ctx: AuthedCtx, id: number, read: boolean): Promise<NotificationResponse> {
  const [row] = await ctx.db
    .update(notifications)
    .set({ readAt: read ? new Date() : null })
    .where(and(eq(notifications.id, id), eq(notifications.userId, ctx.actor.user.id)))
    .returning();
  if (!row) throw new AppError("not_found", "Notification not found");
  return (await presentNotifications(ctx.db, [row]))[0];
}
