import "server-only";
import { and, desc, gte, lt } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { statsSamples } from "@/db/schema";
import type { StatsDay } from "@/lib/contracts/stats";
import { completionsPerDay, utcDay } from "./day-figures";

/**
 * The days before today of the dashboard's series (up to `days - 1` of them, oldest first): the
 * daily samples, with each day's signatures and validations counted from the requests and
 * instances themselves. Today is never sampled here (today-figures.ts).
 */
export async function listPastDays(db: DbOrTx, days = 30, now = new Date()): Promise<StatsDay[]> {
  const today = utcDay(now);
  const since = utcDay(new Date(now.getTime() - (days - 1) * 86_400_000));
  const [found, completions] = await Promise.all([
    db
      .select()
      .from(statsSamples)
      .where(and(gte(statsSamples.day, since), lt(statsSamples.day, today)))
      .orderBy(desc(statsSamples.day))
      .limit(days - 1),
    completionsPerDay(db, since),
  ]);
  return found.reverse().map((r) => ({
    date: r.day,
    storage_used: r.storageUsed,
    active_users: r.activeUsers,
    uploads: r.uploads,
    downloads: r.downloads,
    signatures: completions.get(r.day)?.signatures ?? 0,
    validations: completions.get(r.day)?.validations ?? 0,
  }));
}
