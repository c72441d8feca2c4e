import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
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

/**
 * WebDAV locks (RFC 4918, class 2). A lock on a file also holds our file lock (file_locks), so
 * the API and other users see the file locked; a lock on a folder guards WebDAV changes in it
 * (and below, depth infinity). Tokens are `opaquelocktoken:` URIs, public by design (lockdiscovery
 * shows them); the lock's user must send it in `If` to change what it covers.
 */
export const davLocks = pgTable(
  "dav_locks",
  {
    id: serial("id").primaryKey(),
    token: text("token").notNull().unique("dav_locks_token_key"),
    userId: integer("user_id").notNull(),
    fileId: integer("file_id").references(() => files.id, { onDelete: "cascade" }),
    folderId: integer("folder_id").references(() => folders.id, { onDelete: "cascade" }),
    /** exclusive or shared */
    scope: text("scope").notNull(),
    /** 0 or -1 (infinity) */
    depth: integer("depth").notNull(),
    /** The DAV:owner element's content as the client sent it. */
    owner: text("owner").notNull().default(""),
    timeoutSeconds: integer("timeout_seconds").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("dav_locks_file_idx").on(t.fileId), index("dav_locks_folder_idx").on(t.folderId)],
);
