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
  // A user's trash, newest first, is one backward range scan (and the emptying job's batches too).
  (t) => [index("trash_items_owner_id_deleted_at_idx").on(t.ownerId, t.deletedAt, t.id), index("trash_items_deleted_at_idx").on(t.deletedAt)],
);

/**
 * A trash being emptied (DELETE /trashes): every item of `owner_id` (every owner when null) up to
 * `up_to_id` reads as gone at once, and the job trash.empty purges them in bounded batches, then
 * removes this row. O(1) for the request, whatever the size of the trash.
 */
export const trashPurges = pgTable(
  "trash_purges",
  {
    id: serial("id").primaryKey(),
    ownerId: integer("owner_id"),
    upToId: integer("up_to_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("trash_purges_owner_id_idx").on(t.ownerId)],
);

export type TrashItem = typeof trashItems.$inferSelect;
