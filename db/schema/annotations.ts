import { sql } from "drizzle-orm";
import { index, integer, pgTable, primaryKey, serial, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./users";

/**
 * A note on a file or a folder. For files `target_id` is the logical file (files.id), so the
 * thread survives new versions; the API speaks in version ids and maps them.
 */
export const annotations = pgTable(
  "annotations",
  {
    id: serial("id").primaryKey(),
    targetType: text("target_type", { enum: ["file", "folder"] }).notNull(),
    targetId: integer("target_id").notNull(),
    authorId: integer("author_id").notNull().references(() => users.id),
    text: text("text").notNull(),
    /** The annotation this one replies to, on the same target. */
    conversation: integer("conversation"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
  },
  (t) => [
    index("annotations_target_idx").on(t.targetType, t.targetId).where(sql`${t.deletedAt} IS NULL`),
    index("annotations_created_at_idx").on(t.createdAt),
    index("annotations_author_id_idx").on(t.authorId),
    // Search in annotations (in_annotations): the same 'simple' configuration as file contents.
    index("annotations_text_tsv_idx").using("gin", sql`to_tsvector('simple', ${t.text})`).where(sql`${t.deletedAt} IS NULL`),
  ],
);

/**
 * Unread tracking by time rather than per annotation: a user has read a target's annotations up
 * to `read_at` (set when they list them). Marking all read is one row, whatever the platform size.
 */
export const annotationReads = pgTable(
  "annotation_reads",
  {
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    targetType: text("target_type", { enum: ["file", "folder"] }).notNull(),
    targetId: integer("target_id").notNull(),
    readAt: timestamp("read_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.targetType, t.targetId] })],
);

/** "Mark all read": every annotation created before `read_at` is read for that user. */
export const annotationReadMarks = pgTable("annotation_read_marks", {
  userId: integer("user_id").primaryKey().references(() => users.id, { onDelete: "cascade" }),
  readAt: timestamp("read_at", { withTimezone: true }).notNull().defaultNow(),
});

export type Annotation = typeof annotations.$inferSelect;
