import { integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { files } from "./files";
import { folders } from "./folders";

/**
 * WebDAV dead properties (RFC 4918, 4.3) set by PROPPATCH on a file (all its versions) or a
 * folder; they follow a move (same row ids) and go with the file or folder when it is purged.
 * `value` is the property element's content as XML, its namespaces declared within it.
 */
export const davProperties = pgTable(
  "dav_properties",
  {
    id: serial("id").primaryKey(),
    fileId: integer("file_id").references(() => files.id, { onDelete: "cascade" }),
    folderId: integer("folder_id").references(() => folders.id, { onDelete: "cascade" }),
    namespace: text("namespace").notNull(),
    name: text("name").notNull(),
    value: text("value").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("dav_properties_file_idx").on(t.fileId, t.namespace, t.name),
    uniqueIndex("dav_properties_folder_idx").on(t.folderId, t.namespace, t.name),
  ],
);
