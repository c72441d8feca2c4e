import "server-only";
import { sql } from "drizzle-orm";
import { rows, type DbOrTx } from "@/db";
import { usedOnPlatform } from "../quotas/assert-quota";

const DOWNLOAD_EVENT = 3; // api.md: file timeline type 3, download

/** A UTC day as YYYY-MM-DD. */
export const utcDay = (date: Date) => date.toISOString().slice(0, 10);

/**
 * Job "stats.sample" (hourly, lib/server/jobs/scheduler.ts): writes today's row of stats_samples
 * (storage used and active users as they stand now, uploads and downloads of the day so far), and
 * recounts yesterday's uploads and downloads so a day's last hour is not lost. Storage and active
 * users are snapshots: past days keep the last value sampled on that day.
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
    activeUsersSince(db, today),
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

/** Distinct accounts that used a session or signed in since the start of `day` (UTC). */
async function activeUsersSince(db: DbOrTx, day: string): Promise<number> {
  const [r] = rows<{ n: string | number }>(
    await db.execute(sql`
      SELECT count(*) AS n FROM (
        SELECT user_id FROM sessions WHERE last_used_at >= ${day}::date
        UNION
        SELECT id FROM users WHERE last_login >= ${day}::date AND deleted_at IS NULL) s`),
  );
  return Number(r.n);
}

/** Versions created (uploads) and downloads recorded during one UTC day; both by indexed date ranges. */
async function dayCounts(db: DbOrTx, day: string): Promise<{ uploads: number; downloads: number }> {
  const [r] = rows<{ uploads: string | number; downloads: string | number }>(
    await db.execute(sql`
      SELECT
        (SELECT count(*) FROM file_versions WHERE created_at >= ${day}::date AND created_at < ${day}::date + 1) AS uploads,
        (SELECT count(*) FROM events WHERE type = ${DOWNLOAD_EVENT} AND date >= ${day}::date AND date < ${day}::date + 1) AS downloads`),
  );
  return { uploads: Number(r.uploads), downloads: Number(r.downloads) };
}
