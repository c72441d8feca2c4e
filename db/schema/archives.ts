import { bigint, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./users";

/**
 * An archived file or folder (the contract's Archive). Archiving hides the object and its subtree
 * at once (deleted_at on their rows, in one transaction: never a half-moved tree), then a job
 * moves the bytes of their versions to the cold tier, compressed (state pending → archived).
 * Unarchiving brings them back by a job (restoring), and the tree reappears in one transaction.
 */
export const archives = pgTable(
  "archives",
  {
    id: serial("id").primaryKey(),
    type: text("type", { enum: ["file", "folder"] }).notNull(),
    /** files.id or folders.id. */
    objectId: integer("object_id").notNull(),
    /** For a file: its current version when archived (the contract's File id, kept on restore). */
    objectVersionId: integer("object_version_id"),
    name: text("name").notNull(),
    comment: text("comment").notNull().default(""),
    /** Who archived it; they (and administrators) see and manage it. */
    ownerId: integer("owner_id").references(() => users.id, { onDelete: "set null" }),
    originalParentId: integer("original_parent_id"),
    /** Where it was, as names (the contract's path_name). */
    pathName: text("path_name").notNull().default("/"),
    /** Bytes of its versions as stored live (what the archive quota counts). */
    size: bigint("size", { mode: "number" }).notNull().default(0),
    /** Bytes in the cold tier, compressed. */
    storedSize: bigint("stored_size", { mode: "number" }).notNull().default(0),
    nbFiles: integer("nb_files").notNull().default(0),
    nbFolders: integer("nb_folders").notNull().default(0),
    state: text("state", { enum: ["pending", "archived", "restoring"] }).notNull().default("pending"),
    /** Where a restore in progress puts it back. */
    restoreParentId: integer("restore_parent_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("archives_object_idx").on(t.type, t.objectId), index("archives_owner_id_idx").on(t.ownerId)],
);

/** Every folder and file an archive took (the live ones of the subtree when it was archived). */
export const archiveItems = pgTable(
  "archive_items",
  {
    archiveId: integer("archive_id")
      .notNull()
      .references(() => archives.id, { onDelete: "cascade" }),
    itemType: text("item_type", { enum: ["file", "folder"] }).notNull(),
    itemId: integer("item_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.archiveId, t.itemType, t.itemId] }), index("archive_items_item_idx").on(t.itemType, t.itemId)],
);

/**
 * A file version moved to the cold tier: its file_versions row, kept with the same id (so
 * annotations, events and links by id still match once it is restored), its bytes in the
 * archive store. Versions sharing a blob share one archive blob.
 */
export const archiveVersions = pgTable(
  "archive_versions",
  {
    id: integer("id").primaryKey(),
    archiveId: integer("archive_id")
      .notNull()
      .references(() => archives.id, { onDelete: "cascade" }),
    fileId: integer("file_id").notNull(),
    number: integer("number").notNull(),
    sourceBlobId: text("source_blob_id"),
    archiveBlobId: text("archive_blob_id"),
    compression: text("compression").notNull(),
    size: bigint("size", { mode: "number" }).notNull(),
    storedSize: bigint("stored_size", { mode: "number" }).notNull(),
    md5: text("md5").notNull(),
    mime: text("mime").notNull(),
    creatorId: integer("creator_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    modifiedAt: timestamp("modified_at", { withTimezone: true }).notNull(),
    meta: jsonb("meta"),
    /** Set while restoring: the live blob its bytes went back to (versions sharing an archive blob share it again). */
    restoredBlobId: text("restored_blob_id"),
  },
  (t) => [index("archive_versions_archive_id_idx").on(t.archiveId), index("archive_versions_file_id_idx").on(t.fileId)],
);

export type Archive = typeof archives.$inferSelect;
export type ArchiveVersion = typeof archiveVersions.$inferSelect;
