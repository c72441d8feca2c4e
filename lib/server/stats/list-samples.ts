import "server-only";
import { desc, gte } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { statsSamples } from "@/db/schema";
import type { StatsDay } from "@/lib/contracts/stats";
import { utcDay } from "./sample-stats";

/** The daily samples of the last `days` days, oldest first (what the dashboard's charts draw). */
export async function listSamples(db: DbOrTx, days = 30, now = new Date()): Promise<StatsDay[]> {
  const since = utcDay(new Date(now.getTime() - (days - 1) * 86_400_000));
  const found = await db.select().from(statsSamples).where(gte(statsSamples.day, since)).orderBy(desc(statsSamples.day)).limit(days);
  return found.reverse().map((r) => ({ date: r.day, storage_used: r.storageUsed, active_users: r.activeUsers, uploads: r.uploads, downloads: r.downloads }));
}
