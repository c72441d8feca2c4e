import "server-only";
import { and, count, desc, eq, isNull } from "drizzle-orm";
import { notifications } from "@/db/schema";
import type { AuthedCtx } from "../context";
import { envelope } from "../present/envelope";
import { presentNotifications } from "./present-notifications";

/**
 * GET /notifications (issue 29): the caller's own notifications, newest first, in the list
 * envelope, `unread` keeping the unread ones; `nb_unread` carries the bell's count in the same answer.
 */
export async function listNotifications(ctx: AuthedCtx, options: { offset: number; limit: number; unread: boolean }) {
  const mine = eq(notifications.userId, ctx.actor.user.id);
  const unread = and(mine, isNull(notifications.readAt));
  const where = options.unread ? unread : mine;
  const [page, [{ total }], [{ unreadCount }]] = await Promise.all([
    ctx.db.select().from(notifications).where(where).orderBy(desc(notifications.id)).offset(options.offset).limit(options.limit),
    ctx.db.select({ total: count() }).from(notifications).where(where),
    ctx.db.select({ unreadCount: count() }).from(notifications).where(unread),
  ]);
  return { ...envelope(await presentNotifications(ctx.db, page), options.offset, Number(total)), nb_unread: Number(unreadCount) };
}
