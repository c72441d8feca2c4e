import { index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./users";

/**
 * A user's starred file or folder (issue 29, our own small API). Files by their logical id
 * (files.id), so the star stays on new versions; the API speaks in version ids and maps them.
 * No foreign key on the target: a deleted or trashed target is simply left out on read.
 */
export const stars = pgTable(
  "stars",
  {
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    targetType: text("target_type", { enum: ["file", "folder"] }).notNull(),
    targetId: integer("target_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.targetType, t.targetId] }), index("stars_user_id_created_at_idx").on(t.userId, t.createdAt)],
);

export type Star = typeof stars.$inferSelect;
