import { sql } from "drizzle-orm";
import { customType, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { fileVersions } from "./files";

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/**
 * What is derived from a version's bytes by jobs: its thumbnail (a blob), its page count and its
 * text for full-text search. States: pending, preparing, available, failed (and `none` when the
 * format has no preview).
 */
export const versionPreviews = pgTable(
  "version_previews",
  {
    versionId: integer("version_id").primaryKey().references(() => fileVersions.id, { onDelete: "cascade" }),
    state: text("state").notNull().default("pending"),
    /** image, document or video (the contract's file_type); null when no preview exists. */
    fileType: text("file_type"),
    thumbBlobId: text("thumb_blob_id"),
    thumbMime: text("thumb_mime"),
    pageCount: integer("page_count"),
    error: text("error"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  // Garbage collection asks, blob by blob, whether a thumbnail still uses it.
  (t) => [index("version_previews_thumb_blob_id_idx").on(t.thumbBlobId).where(sql`${t.thumbBlobId} IS NOT NULL`)],
);

export const versionTexts = pgTable(
  "version_texts",
  {
    versionId: integer("version_id").primaryKey().references(() => fileVersions.id, { onDelete: "cascade" }),
    state: text("state").notNull().default("pending"),
    content: text("content").notNull().default(""),
    /** 'simple' configuration: no stemming, so every language is searched the same way. */
    tsv: tsvector("tsv").generatedAlwaysAs(sql`to_tsvector('simple', left(content, 1000000))`),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("version_texts_tsv_idx").using("gin", t.tsv)],
);

export type VersionPreview = typeof versionPreviews.$inferSelect;
export type VersionText = typeof versionTexts.$inferSelect;
