import { boolean, index, integer, pgTable, serial, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { folders } from "./folders";

// A folder access right for a user or a group (ids share one space). Inherited down the tree:
// the nearest right on the folder or an ancestor wins, per target.
export const rights = pgTable(
  "rights",
  {
    id: serial("id").primaryKey(),
    folderId: integer("folder_id").notNull().references(() => folders.id, { onDelete: "cascade" }),
    targetId: integer("target_id").notNull(),
    browse: boolean("browse").notNull().default(false),
    read: boolean("read").notNull().default(false),
    download: boolean("download").notNull().default(false),
    write: boolean("write").notNull().default(false),
    edit: boolean("edit").notNull().default(false),
    delete: boolean("delete").notNull().default(false),
    share: boolean("share").notNull().default(false),
    createdBy: integer("created_by"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("rights_folder_id_target_id_idx").on(t.folderId, t.targetId),
    index("rights_target_id_idx").on(t.targetId),
  ],
);

export type RightRow = typeof rights.$inferSelect;
