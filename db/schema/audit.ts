import { bigserial, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

// The contract's Log entry. Written in the same transaction as the change it records.
export const logs = pgTable(
  "logs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: integer("user_id"),
    userName: text("user_name").notNull().default("guest"),
    date: timestamp("date", { withTimezone: true }).notNull().defaultNow(),
    message: text("message").notNull(),
    ip: text("ip"),
    userAgent: text("user_agent"),
    type: text("type").notNull(),
    statut: text("statut").notNull().default("ADMLLOG_OK"),
    objectId: text("object_id"),
    objectType: text("object_type"),
    object: text("object"),
  },
  (t) => [index("logs_date_idx").on(t.date), index("logs_user_id_idx").on(t.userId)],
);
