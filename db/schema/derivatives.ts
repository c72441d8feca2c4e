import { sql } from "drizzle-orm";
import { bigint, customType, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
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

/**
 * Text search configurations a text can be indexed with (PostgreSQL's built-in ones for the
 * languages of our catalogues; Chinese has none and is indexed with 'simple').
 */
export const TEXT_LANGUAGES = ["simple", "english", "french", "german", "spanish", "italian", "portuguese"] as const;
export type TextLanguage = (typeof TEXT_LANGUAGES)[number];

/**
 * The tsvector of a text in its language. A cast text -> regconfig is not immutable, so a
 * generated column names each configuration as a constant; queries that want the GIN index spell
 * this same expression (or match on the column).
 */
const TSV_EXPRESSION = sql.raw(
  `CASE language ${TEXT_LANGUAGES.filter((l) => l !== "simple")
    .map((l) => `WHEN '${l}' THEN to_tsvector('${l}'::regconfig, left(content, 1000000))`)
    .join(" ")} ELSE to_tsvector('simple'::regconfig, left(content, 1000000)) END`,
);

/**
 * The searchable text of a version (texts jobs). States: pending, preparing (OCR under way,
 * `pages_done` pages of `content` kept), available, failed, none (the format holds no text), and
 * unavailable (a tool the format needs, named by `tool_missing`, is not installed). `content`
 * separates pages with a form feed for PDFs, scans and presentations: page N is the text after
 * the (N-1)th '\f'. `tool_missing` may also be set on an available text that lacks some pages
 * (a PDF whose scanned pages could not be read without Tesseract).
 */
export const versionTexts = pgTable(
  "version_texts",
  {
    versionId: integer("version_id").primaryKey().references(() => fileVersions.id, { onDelete: "cascade" }),
    state: text("state").notNull().default("pending"),
    content: text("content").notNull().default(""),
    /** The text search configuration of the content (TEXT_LANGUAGES): detected, else the owner's. */
    language: text("language").$type<TextLanguage>().notNull().default("simple"),
    tsv: tsvector("tsv").generatedAlwaysAs(TSV_EXPRESSION),
    /** 'tesseract' or 'libreoffice' when that tool was needed and not found. */
    toolMissing: text("tool_missing"),
    /** OCR progress: the pages of `content` already read, so a restarted job resumes there. */
    pagesDone: integer("pages_done").notNull().default(0),
    /** The scan with an invisible text layer (OCR'd images and PDFs), a blob like the content. */
    searchableBlobId: text("searchable_blob_id"),
    searchableSize: bigint("searchable_size", { mode: "number" }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("version_texts_tsv_idx").using("gin", t.tsv),
    // Garbage collection asks, blob by blob, whether a searchable PDF still uses it.
    index("version_texts_searchable_blob_id_idx").on(t.searchableBlobId).where(sql`${t.searchableBlobId} IS NOT NULL`),
  ],
);

export type VersionPreview = typeof versionPreviews.$inferSelect;
export type VersionText = typeof versionTexts.$inferSelect;
