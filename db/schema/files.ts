import { sql } from "drizzle-orm";
import { bigint, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { folders } from "./folders";
import { shares } from "./shares";
import { users } from "./users";

// A file (the contract's `guid`) and its versions (the contract's File `id` is a version id).
export const files = pgTable(
  "files",
  {
    id: serial("id").primaryKey(),
    guid: uuid("guid").notNull().defaultRandom().unique("files_guid_key"),
    folderId: integer("folder_id").notNull().references(() => folders.id),
    name: text("name").notNull(),
    /** What names collide and sort on (api.md: case-insensitive after NFC), stored so that deep
     * pages of a big folder do not re-evaluate it for every skipped row. */
    nameKey: text("name_key").notNull().generatedAlwaysAs(sql`lower(normalize(name, NFC))`),
    ownerId: integer("owner_id").notNull().references(() => users.id),
    /** The newest live version; listings join on it. */
    currentVersionId: integer("current_version_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    modifiedAt: timestamp("modified_at", { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    trashId: integer("trash_id"),
  },
  (t) => [
    // Migration 0020 recreates it with INCLUDE (id) (index-only pages), which drizzle cannot spell.
    uniqueIndex("files_folder_id_name_idx")
      .on(t.folderId, t.nameKey)
      .where(sql`${t.deletedAt} IS NULL`),
    index("files_folder_id_idx").on(t.folderId),
    // order=modification: a folder's page read in index order (either direction), ties by name and id.
    index("files_folder_id_modified_at_idx")
      .on(t.folderId, t.modifiedAt, t.nameKey, t.id)
      .where(sql`${t.deletedAt} IS NULL`),
    index("files_name_key_trgm_idx").using("gin", sql`${t.nameKey} gin_trgm_ops`),
    index("files_trash_id_idx").on(t.trashId),
    // Content search goes from the matching texts (version_texts, a GIN) to their live files.
    index("files_current_version_id_idx").on(t.currentVersionId).where(sql`${t.deletedAt} IS NULL`),
  ],
);

export const fileVersions = pgTable(
  "file_versions",
  {
    id: serial("id").primaryKey(),
    fileId: integer("file_id").notNull().references(() => files.id, { onDelete: "cascade" }),
    number: integer("number").notNull(),
    blobId: text("blob_id"),
    size: bigint("size", { mode: "number" }).notNull().default(0),
    md5: text("md5").notNull(),
    mime: text("mime").notNull().default("application/octet-stream"),
    /** Who uploaded it; the uploader's quota carries it. */
    creatorId: integer("creator_id").notNull().references(() => users.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    modifiedAt: timestamp("modified_at", { withTimezone: true }).notNull().defaultNow(),
    meta: jsonb("meta"),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("file_versions_file_id_number_idx").on(t.fileId, t.number),
    index("file_versions_creator_id_idx").on(t.creatorId),
    index("file_versions_md5_idx").on(t.fileId, t.md5),
    index("file_versions_created_at_idx").on(t.createdAt),
    // Copies and clones share blobs: the collector and the reuse of derivatives look versions up by blob.
    index("file_versions_blob_id_idx").on(t.blobId),
  ],
);

/**
 * Bytes of every version (trashed included) each user created: their quota's `used`, kept by
 * statement-level triggers on file_versions (migration 0020) in the writing transaction, so a
 * quota check or figure reads one row instead of summing a user's versions.
 */
export const userUsage = pgTable("user_usage", {
  userId: integer("user_id").primaryKey(),
  bytes: bigint("bytes", { mode: "number" }).notNull().default(0),
});

// Every stored blob, so unreferenced ones can be collected (copies and clones share a blob).
export const blobs = pgTable("blobs", {
  id: text("id").primaryKey(),
  size: bigint("size", { mode: "number" }).notNull(),
  md5: text("md5").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export const fileLocks = pgTable("file_locks", {
  fileId: integer("file_id").primaryKey().references(() => files.id, { onDelete: "cascade" }),
  ownerId: integer("owner_id").notNull().references(() => users.id),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

// Short-lived tokens for one file and one use (preview, edit, download). A token stands either
// for a user (their rights are checked again on use) or for a link share (its flags are).
export const fileTokens = pgTable("file_tokens", {
  tokenHash: text("token_hash").primaryKey(),
  versionId: integer("version_id").notNull().references(() => fileVersions.id, { onDelete: "cascade" }),
  userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
  shareId: integer("share_id").references(() => shares.id, { onDelete: "cascade" }),
  /** The email-share recipient whose personal address asked for it, so their download counts for them. */
  recipientId: integer("recipient_id"),
  /** The link visitor (link_visitors) who asked for it, so their download counts for them. */
  visitorId: integer("visitor_id"),
  /** download, preview or edit; `<use>:pinned` for a token held to its version whatever `latest` asks (pinnedUse). */
  type: text("type").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
});

export type FileRow = typeof files.$inferSelect;
export type FileVersion = typeof fileVersions.$inferSelect;
