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

export type Folder = typeof folders.$inferSelect;
