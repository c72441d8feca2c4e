import { notificationParams, notificationResponse, updateNotificationBody } from "@/lib/contracts/notifications";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { updateNotification } from "@/lib/server/notifications/update-notification";

export const runtime = "nodejs";

// PUT /api/notification/(notificationId): mark one of the caller's notifications read or unread
export const PUT = route({ params: notificationParams, body: updateNotificationBody, response: notificationResponse }, ({ ctx, params, body }) =>
  updateNotification(ctx, params.notificationId, body.read),
);

export const { GET, PATCH, POST, DELETE } = otherMethods({ PUT });
