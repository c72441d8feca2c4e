import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, primaryKey, serial, smallint, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./users";

/** A platform-wide group of tags with its colour (the contract's Tag category); administrators manage them. */
export const tagCategories = pgTable(
  "tag_categories",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    nameKey: text("name_key").notNull().generatedAlwaysAs(sql`lower(normalize(name, NFC))`),
    /** `#rrggbb`; the contract's primary, secondary and tertiary colours are shades of it. */
    color: text("color").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("tag_categories_name_key_idx").on(t.nameKey)],
);

/**
 * A tag (the contract's Tag). A public tag is seen by every user; a private one by its owner
 * alone (api.md), administrators included. Names are unique among public tags, and among one
 * owner's private tags, compared like file names (case-insensitive after NFC).
 */
export const tags = pgTable(
  "tags",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    /** The contract's `key` (the search form of the name). */
    nameKey: text("name_key").notNull().generatedAlwaysAs(sql`lower(normalize(name, NFC))`),
    categoryId: integer("category_id").references(() => tagCategories.id, { onDelete: "set null" }),
    ownerId: integer("owner_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    private: boolean("private").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("tags_public_name_key_idx").on(t.nameKey).where(sql`NOT ${t.private}`),
    uniqueIndex("tags_private_name_key_idx").on(t.ownerId, t.nameKey).where(sql`${t.private}`),
    index("tags_category_id_idx").on(t.categoryId),
  ],
);

/**
 * A tag on a file or a folder. For files `target_id` is the logical file (files.id), so the tag
 * stays on new versions; the API speaks in version ids and maps them. Tag search reads the
 * (tag, type) prefix; an element's tags, the (type, target) index.
 */
export const tagLinks = pgTable(
  "tag_links",
  {
    tagId: integer("tag_id").notNull().references(() => tags.id, { onDelete: "cascade" }),
    targetType: text("target_type", { enum: ["file", "folder"] }).notNull(),
    targetId: integer("target_id").notNull(),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tagId, t.targetType, t.targetId] }), index("tag_links_target_idx").on(t.targetType, t.targetId)],
);

/**
 * What happened to a tag (the contract's Tag activity; api.md types: 1 created, 2 renamed,
 * 3 attached, 4 detached, 5 deleted). No foreign key on the tag: the deletion stays recorded.
 */
export const tagActivities = pgTable(
  "tag_activities",
  {
    id: serial("id").primaryKey(),
    tagId: integer("tag_id").notNull(),
    type: smallint("type").notNull(),
    actorId: integer("actor_id").references(() => users.id, { onDelete: "set null" }),
    /** Attach and detach: {target_type, target_id}; rename: {old_name, name}. */
    data: jsonb("data"),
    date: timestamp("date", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("tag_activities_tag_id_idx").on(t.tagId, t.date)],
);

export type TagCategory = typeof tagCategories.$inferSelect;
export type Tag = typeof tags.$inferSelect;
export type TagActivity = typeof tagActivities.$inferSelect;
export const TAG_ACTIVITY = { created: 1, renamed: 2, attached: 3, detached: 4, deleted: 5 } as const;
