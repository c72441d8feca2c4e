import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import { notifications } from "@/db/schema";
import type { AuthedCtx } from "../context";

/** PUT /notifications/read (issue 29): every unread notification of the caller becomes read (204). */
export async function readAllNotifications(ctx: AuthedCtx): Promise<void> {
  await ctx.db
    .update(notifications)
    .set({ readAt: new Date() })
    .where(and(eq(notifications.userId, ctx.actor.user.id), isNull(notifications.readAt)));
}
