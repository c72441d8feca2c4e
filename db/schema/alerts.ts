import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { folders } from "./folders";
import { emails } from "./mail";

/** The contract's Email alert: a user or group is mailed about changes in a folder (and below). */
export const alerts = pgTable(
  "alerts",
  {
    id: serial("id").primaryKey(),
    folderId: integer("folder_id").notNull().references(() => folders.id, { onDelete: "cascade" }),
    /** A user or a group (ids share one sequence). */
    targetId: integer("target_id").notNull(),
    /** A custom EM_TE_ALERT template; null = the default alert mail. */
    emailId: integer("email_id").references(() => emails.id, { onDelete: "set null" }),
    active: boolean("active").notNull().default(true),
    expirationDate: timestamp("expiration_date", { withTimezone: true }),
    ownerId: integer("owner_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("alerts_folder_id_target_id_idx").on(t.folderId, t.targetId),
    index("alerts_target_id_idx").on(t.targetId),
  ],
);

/**
 * One change waiting for a recipient's digest. Rows are written in the transaction of the change
 * and consumed by the digest job, which mails each recipient once per few minutes.
 */
export const alertChanges = pgTable(
  "alert_changes",
  {
    id: serial("id").primaryKey(),
    recipientId: integer("recipient_id").notNull(),
    alertId: integer("alert_id").notNull().references(() => alerts.id, { onDelete: "cascade" }),
    folderId: integer("folder_id").notNull(),
    /** file_created, version_created, deleted, annotation */
    kind: text("kind").notNull(),
    objectType: text("object_type").notNull(),
    objectId: integer("object_id"),
    objectName: text("object_name").notNull(),
    actorId: integer("actor_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("alert_changes_recipient_idx").on(t.recipientId, t.createdAt)],
);

export type AlertRow = typeof alerts.$inferSelect;
