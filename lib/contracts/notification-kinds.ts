/** What produces an in-app notification (issue 29): stable strings, written in the API. Shared by db/schema and the contract. */
export const NOTIFICATION_TYPES = ["share", "comment", "alert", "signature", "validation", "deposit"] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
/** What a notification points at; the web client turns it into a page. */
export const NOTIFICATION_OBJECTS = ["file", "folder", "share", "signature", "workflow", "ulink"] as const;
export type NotificationObjectType = (typeof NOTIFICATION_OBJECTS)[number];
