import { bigint, index, integer, pgTable, serial, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { fileVersions } from "./files";
import { folders } from "./folders";
import { users } from "./users";

/**
 * A file template (the contract's File template): the content of a file, offered for new files
 * in a folder and below it, or everywhere (`folder_id` null, administrators only). The template
 * shares the blob of the version it was made from, and new files share it in turn (bytes are
 * never copied); the blob collector counts `blob_id` as a reference.
 */
export const fileTemplates = pgTable(
  "file_templates",
  {
    id: serial("id").primaryKey(),
    guid: uuid("guid").notNull().defaultRandom().unique("file_templates_guid_key"),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    /** Where it is offered (and below); null: on the whole platform. */
    folderId: integer("folder_id").references(() => folders.id, { onDelete: "cascade" }),
    blobId: text("blob_id").notNull(),
    size: bigint("size", { mode: "number" }).notNull(),
    md5: text("md5").notNull(),
    mime: text("mime").notNull(),
    /** The version it was made from, while it exists (its thumbnail stands for the template's). */
    sourceVersionId: integer("source_version_id").references(() => fileVersions.id, { onDelete: "set null" }),
    ownerId: integer("owner_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("file_templates_folder_id_idx").on(t.folderId), index("file_templates_blob_id_idx").on(t.blobId)],
);

/** Short-lived tokens for a template's content (POST /token/template/(id)/(type)); only the hash is kept. */
export const templateTokens = pgTable(
  "template_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    templateId: integer("template_id")
      .notNull()
      .references(() => fileTemplates.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("template_tokens_user_id_idx").on(t.userId)],
);

export type FileTemplate = typeof fileTemplates.$inferSelect;
