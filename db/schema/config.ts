import { jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

// Platform options changed at run time by administrators (GET/PUT /api/config).
export const platformConfig = pgTable("platform_config", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
