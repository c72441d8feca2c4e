import { boolean, index, integer, jsonb, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";

// The contract's Email: templates (EM_TE_ALERT) and the outbox (EM_TE_TOSEND → EM_TE_SENDED).
export const emails = pgTable(
  "emails",
  {
    id: serial("id").primaryKey(),
    type: text("type").notNull(),
    object: text("object").notNull().default(""),
    content: text("content").notNull().default(""),
    html: text("html"),
    from: text("from"),
    to: text("to"),
    bcc: text("bcc"),
    ownerId: integer("owner_id"),
    /** Carries a secret (reset link, password): its body is never shown through the API, nor edited. */
    sensitive: boolean("sensitive").notNull().default(false),
    /** Files sent with the mail, read from the blob store when it is sent: [{ filename, blob_id, content_type }]. */
    attachments: jsonb("attachments").$type<{ filename: string; blob_id: string; content_type: string }[]>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastSend: timestamp("last_send", { withTimezone: true }),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
  },
  (t) => [index("emails_type_idx").on(t.type), index("emails_owner_id_idx").on(t.ownerId, t.id)],
);
