import { z } from "zod";
import { NOTIFICATION_OBJECTS, NOTIFICATION_TYPES } from "./notification-kinds";
import { flag, id, isoDate, listResponse, paging } from "./common";

/** In-app notifications (issue 29): GET /notifications, PUT /notification/(id), PUT /notifications/read. */
export const listNotificationsQuery = z.object({ ...paging, unread: flag });
export const notificationParams = z.object({ notificationId: id });
export const updateNotificationBody = z.strictObject({ read: z.boolean() });

export const notificationResponse = z.strictObject({
  id: z.number().int(),
  type: z.enum(NOTIFICATION_TYPES),
  date: isoDate,
  read: z.boolean(),
  actor: z.strictObject({ id: z.number().int(), name: z.string() }).nullable(),
  object: z.strictObject({
    type: z.enum(NOTIFICATION_OBJECTS),
    id: z.number().int(),
    name: z.string(),
    /** The app's path that opens it, where its type and id do not tell (a file's folder, an email share's personal address). */
    url: z.string().optional(),
  }),
});
export type NotificationResponse = z.infer<typeof notificationResponse>;
export const notificationsResponse = listResponse(notificationResponse).extend({ nb_unread: z.number().int() });
