import "server-only";
import type { DbOrTx } from "@/db";
import type { StatsDay } from "@/lib/contracts/stats";
import { usedOnPlatform } from "../quotas/assert-quota";
import { activeUsersOfDay, dayCounts, utcDay } from "./day-figures";

/**
 * Today's point of the dashboard's series, from the live data on every request (never cached,
 * never sampled): storage from the usage counters (the same figure as `storage.main.used`, so the
 * card and the chart's last point agree), the rest by today's index range. A handful of index
 * range scans over one day's rows.
 */
export async function todayFigures(db: DbOrTx, now = new Date()): Promise<StatsDay> {
  const date = utcDay(now);
  const [storageUsed, activeUsers, counts] = await Promise.all([usedOnPlatform(db), activeUsersOfDay(db, date), dayCounts(db, date)]);
  return { date, storage_used: storageUsed, active_users: activeUsers, ...counts };
}
