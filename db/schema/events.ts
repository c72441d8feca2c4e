import { index, integer, jsonb, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";

// Timeline events (downloads, previews, versions, shares, annotations, locks).
export const events = pgTable(
  "events",
  {
    id: serial("id").primaryKey(),
    targetType: text("target_type").notNull(),
    targetId: integer("target_id").notNull(),
    /** The version concerned, for file events. */
    versionId: integer("version_id"),
    type: integer("type").notNull(),
    actorId: integer("actor_id"),
    date: timestamp("date", { withTimezone: true }).notNull().defaultNow(),
    env: jsonb("env"),
    geo: jsonb("geo"),
    data: jsonb("data"),
  },
  (t) => [
    index("events_target_idx").on(t.targetType, t.targetId, t.date),
    // Downloads per day for the dashboard (stats.sample counts one day's type-3 events).
    index("events_type_date_idx").on(t.type, t.date),
  ],
);
