import "server-only";
import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { usedOnPlatform } from "../quotas/assert-quota";
import { activeUsersOfDay, dayCounts, utcDay } from "./day-figures";

export { utcDay };

/**
 * Job "stats.sample" (hourly, lib/server/jobs/scheduler.ts): writes today's row of stats_samples
 * (storage used and active users as they stand now, uploads and downloads of the day so far), and
 * recounts yesterday's uploads and downloads so a day's last hour is not lost. Storage and active
 * users are snapshots: past days keep the last value sampled on that day. The dashboard's today
 * is never read from here: GET /stats computes it live (today-figures.ts); samples are the past.
 */
export async function sampleStatsJob(db: DbOrTx): Promise<void> {
  await sampleStats(db, new Date());
  // Warm this process's statistics cache, so the dashboard's first visit does not wait for the
  // slow parts (lib/server/stats/get-stats.ts).
  const { statsFor, ALL_PARTS } = await import("./get-stats");
  await statsFor(db, ALL_PARTS);
}

export async function sampleStats(db: DbOrTx, now: Date): Promise<void> {
  const today = utcDay(now);
  const yesterday = utcDay(new Date(now.getTime() - 86_400_000));
  const [used, active, todayCounts, yesterdayCounts] = await Promise.all([
    usedOnPlatform(db),
    activeUsersOfDay(db, today),
    dayCounts(db, today),
    dayCounts(db, yesterday),
  ]);
  await db.execute(sql`
    INSERT INTO stats_samples (day, storage_used, active_users, uploads, downloads, sampled_at)
    VALUES (${today}::date, ${used}, ${active}, ${todayCounts.uploads}, ${todayCounts.downloads}, now())
    ON CONFLICT (day) DO UPDATE SET storage_used = excluded.storage_used, active_users = excluded.active_users,
      uploads = excluded.uploads, downloads = excluded.downloads, sampled_at = excluded.sampled_at`);
  await db.execute(sql`
    UPDATE stats_samples SET uploads = ${yesterdayCounts.uploads}, downloads = ${yesterdayCounts.downloads}
    WHERE day = ${yesterday}::date`);
}
