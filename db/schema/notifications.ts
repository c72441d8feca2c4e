import { index, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./users";

/**
 * One in-app notification of a user (issue 29), written in the transaction of the event beside
 * the mail, which stays as it was. The object's name is kept as it was then, so a notification
 * reads the same after a rename or deletion (no foreign key on the object).
 */
export const notifications = pgTable(
  "notifications",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    /** One of the contract's NOTIFICATION_TYPES (lib/contracts/notification-kinds.ts), as notify() writes it. */
    type: text("type").notNull(),
    actorId: integer("actor_id").references(() => users.id, { onDelete: "set null" }),
    /** One of the contract's NOTIFICATION_OBJECTS. */
    objectType: text("object_type").notNull(),
    objectId: integer("object_id").notNull(),
    objectName: text("object_name").notNull(),
    /** The app's path that opens the object where its type and id do not tell (a file's folder, an email share's address). */
    url: text("url"),
    readAt: timestamp("read_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("notifications_user_id_id_idx").on(t.userId, t.id)],
);

export type NotificationRow = typeof notifications.$inferSelect;
