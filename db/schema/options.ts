import { boolean, integer, pgTable, smallint, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Connection options of a user or a group (the contract's Connection options). A user without a
 * row inherits from their groups' rows. Hours are "HH:MM" in GMT.
 */
export const connectionOptions = pgTable("connection_options", {
  targetId: integer("target_id").primaryKey(),
  /** null = no filtering; an empty array forbids every address. Entries are IPs or CIDR ranges. */
  ips: text("ips").array(),
  /** 1 Sunday, 2 Monday … 64 Saturday, 128 Sunday again; 255 = every day. */
  days: smallint("days").notNull().default(255),
  hourStart: text("hour_start"),
  hourEnd: text("hour_end"),
  canNetsync: boolean("can_netsync").notNull().default(true),
  /** 1 web, 2 mobile, 4 mail connector. */
  oauthBlocked: smallint("oauth_blocked").notNull().default(0),
  updatedBy: integer("updated_by"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export type ConnectionOptionsRow = typeof connectionOptions.$inferSelect;
