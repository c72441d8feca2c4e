import { index, integer, pgTable, serial, smallint, text, timestamp } from "drizzle-orm/pg-core";
import { folders } from "./folders";
import { users } from "./users";

/**
 * An email address invited to a folder with a rights mask (1 read, 2 download, 4 write, 8 edit,
 * 16 delete, 32 share). The key is shown to the inviter (the contract lists it) and mailed to the
 * invited person, who completes an external account with it once, before `expiration`.
 */
export const invitations = pgTable(
  "invitations",
  {
    id: serial("id").primaryKey(),
    key: text("key").notNull().unique("invitations_key_key"),
    email: text("email").notNull(),
    folderId: integer("folder_id").notNull().references(() => folders.id, { onDelete: "cascade" }),
    rights: smallint("rights").notNull(),
    expiration: timestamp("expiration", { withTimezone: true }),
    sourceId: integer("source_id").notNull().references(() => users.id),
    /** The account created from it; set once, which makes the key used. */
    targetId: integer("target_id").references(() => users.id, { onDelete: "set null" }),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("invitations_folder_id_idx").on(t.folderId), index("invitations_source_id_idx").on(t.sourceId)],
);

export type InvitationRow = typeof invitations.$inferSelect;
