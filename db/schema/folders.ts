import { sql } from "drizzle-orm";
import { bigint, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./users";

// A folder tree. `path` holds the ids of the ancestors from the top (materialised path), so a
// subtree is one indexed `path @> ARRAY[id]` and the ancestors are `id = ANY(path)`.
export const folders = pgTable(
  "folders",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    /** lower(normalize(name, NFC)): what names collide and sort on (api.md). */
    nameKey: text("name_key").notNull().generatedAlwaysAs(sql`lower(normalize(name, NFC))`),
    /** null at the top level (the contract's parent_id 0). */
    parentId: integer("parent_id"),
    path: integer("path").array().notNull().default(sql`'{}'::integer[]`),
    ownerId: integer("owner_id").notNull().references(() => users.id),
    /** private: a user's private space and below; company: administrator-made top folders and below. */
    space: text("space").notNull().default("company"),
    /** 0 unlimited, -1 inherit from the parent, otherwise bytes. */
    quota: bigint("quota", { mode: "number" }).notNull().default(-1),
    purgeFrequency: integer("purge_frequency").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    modifiedAt: timestamp("modified_at", { withTimezone: true }).notNull().defaultNow(),
    /** Set on every folder of a trashed subtree, with the trash item that took it. */
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    trashId: integer("trash_id"),
  },
  (t) => [
    index("folders_parent_id_idx").on(t.parentId),
    index("folders_path_idx").using("gin", t.path),
    index("folders_trash_id_idx").on(t.trashId),
    // What a user owns (the reachable folders of a search, a user's spaces), without a scan of every folder.
    index("folders_owner_id_idx").on(t.ownerId),
    uniqueIndex("folders_parent_id_name_idx")
      .on(t.parentId, t.nameKey)
      .where(sql`${t.deletedAt} IS NULL AND ${t.parentId} IS NOT NULL`),
  ],
);

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

export type Folder = typeof folders.$inferSelect;
export type TrashItem = typeof trashItems.$inferSelect;
