import { bigint, date, integer, pgTable, timestamp } from "drizzle-orm/pg-core";

// One row per day, written by the "stats.sample" job: what the dashboard's charts draw. Uploads
// and downloads are exact counts of the day; storage and active users are the day's last sample.
export const statsSamples = pgTable("stats_samples", {
  day: date("day", { mode: "string" }).primaryKey(),
  storageUsed: bigint("storage_used", { mode: "number" }).notNull().default(0),
  activeUsers: integer("active_users").notNull().default(0),
  uploads: integer("uploads").notNull().default(0),
  downloads: integer("downloads").notNull().default(0),
  sampledAt: timestamp("sampled_at", { withTimezone: true }).notNull().defaultNow(),
});

export type StatsSample = typeof statsSamples.$inferSelect;
