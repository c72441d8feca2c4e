import { listNotificationsQuery, notificationsResponse } from "@/lib/contracts/notifications";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { listNotifications } from "@/lib/server/notifications/list-notifications";

export const runtime = "nodejs";

// GET /api/notifications: the caller's notifications, newest first (`unread` keeps the unread ones)
export const GET = route({ query: listNotificationsQuery, response: notificationsResponse }, ({ ctx, query }) =>
  listNotifications(ctx, { offset: query.offset_start, limit: query.nb_objects, unread: query.unread }),
);

export const { PUT, PATCH, POST, DELETE } = otherMethods({ GET });
