import { bigint, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { fileVersions } from "./files";

/**
 * What a converter made of a version for viewing (previews jobs): the PDF of an office document
 * (LibreOffice), a web-playable MP4 of a video whose original browsers cannot play (ffmpeg).
 * Rows go with their version; their blobs are counted by the blob collector.
 */
export const versionRenditions = pgTable(
  "version_renditions",
  {
    versionId: integer("version_id")
      .primaryKey()
      .references(() => fileVersions.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["pdf", "video"] }).notNull(),
    blobId: text("blob_id").notNull(),
    mime: text("mime").notNull(),
    size: bigint("size", { mode: "number" }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("version_renditions_blob_id_idx").on(t.blobId)],
);

export type VersionRendition = typeof versionRenditions.$inferSelect;
