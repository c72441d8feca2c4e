import { index, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./users";

// Something a user deleted: a folder (with its subtree) or a file. Restoring removes the row.
export const trashItems = pgTable(
  "trash_items",
  {
    id: serial("id").primaryKey(),
    folderId: integer("folder_id"),
    fileId: integer("file_id"),
    /** When only some versions of a file were deleted, those versions; null for the whole file. */
    versionIds: integer("version_ids").array(),
    /** Whose trash it is in: the owner of the space it came from. */
    ownerId: integer("owner_id").notNull().references(() => users.id),
    deletedBy: integer("deleted_by").references(() => users.id),
    originalParentId: integer("original_parent_id"),
    name: text("name").notNull().default(""),
    deletedAt: timestamp("deleted_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("trash_items_owner_id_idx").on(t.ownerId), index("trash_items_deleted_at_idx").on(t.deletedAt)],
);

export type TrashItem = typeof trashItems.$inferSelect;
