import { sql } from "drizzle-orm";
import { bigint, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./users";

// A folder tree. `path` holds the ids of the ancestors from the top (materialised path), so a
// subtree is one indexed `path @> ARRAY[id]` and ancestors are `id = ANY(path)`.
export const folders = pgTable(
  "folders",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    parentId: integer("parent_id"),
    path: integer("path").array().notNull().default(sql`'{}'::integer[]`),
    ownerId: integer("owner_id").notNull().references(() => users.id),
    // private: a user's private space root and below; company: administrator-made top folders and below.
    space: text("space").notNull().default("company"),
    quota: bigint("quota", { mode: "number" }).notNull().default(-1),
    purgeFrequency: integer("purge_frequency").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    modifiedAt: timestamp("modified_at", { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
  },
  (t) => [
    index("folders_parent_id_idx").on(t.parentId),
    index("folders_path_idx").using("gin", t.path),
    uniqueIndex("folders_parent_id_name_idx")
      .on(sql`coalesce(${t.parentId}, 0)`, sql`lower(normalize(${t.name}, NFC))`)
      .where(sql`${t.deletedAt} IS NULL AND ${t.parentId} IS NOT NULL`),
  ],
);

// Something a user deleted: a folder (with its subtree) or a file. Restoring removes the row.
export const trashItems = pgTable(
  "trash_items",
  {
    id: serial("id").primaryKey(),
    folderId: integer("folder_id").references(() => folders.id, { onDelete: "cascade" }),
    fileId: integer("file_id"),
    ownerId: integer("owner_id").notNull().references(() => users.id),
    deletedBy: integer("deleted_by").references(() => users.id),
    originalParentId: integer("original_parent_id"),
    deletedAt: timestamp("deleted_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("trash_items_owner_id_idx").on(t.ownerId)],
);

export type Folder = typeof folders.$inferSelect;
