import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { ulinks } from "./shares";
import { users } from "./users";

// An upload in progress (chunked or tus). Never visible, never counted; collected when abandoned.
export const uploads = pgTable(
  "uploads",
  {
    id: text("id").primaryKey(),
    kind: text("kind").notNull(),
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    folderId: integer("folder_id").notNull(),
    name: text("name").notNull(),
    size: bigint("size", { mode: "number" }),
    chunks: integer("chunks"),
    chunkSize: bigint("chunk_size", { mode: "number" }),
    expectedMd5: text("expected_md5"),
    /** For drop links and other callers that must never replace an existing file. */
    neverOverwrite: boolean("never_overwrite").notNull().default(false),
    context: jsonb("context"),
    /**
     * The drop link of an anonymous deposit (null for a user's own upload): open deposits are
     * capped per link and expire sooner than a user's uploads.
     */
    ulinkId: integer("ulink_id").references(() => ulinks.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  // `size` is the reservation an open upload holds against the quotas: summed per user, folder and link.
  (t) => [
    index("uploads_updated_at_idx").on(t.updatedAt),
    index("uploads_user_id_idx").on(t.userId),
    index("uploads_folder_id_idx").on(t.folderId),
    index("uploads_ulink_id_idx").on(t.ulinkId),
  ],
);
