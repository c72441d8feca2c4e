import "server-only";
import type { DbOrTx } from "@/db";
import { ALL_STATS, STATS_MASK, type StatsQuery, type StatsResponse } from "@/lib/contracts/stats";
import { type AuthedCtx, isAdmin } from "../context";
import { forbidden } from "../errors";
import { visits, slots } from "./activity-figures";
import { listSamples } from "./list-samples";
import { sampleStats, utcDay } from "./sample-stats";
import { largestUsers, mainStorage, privateStorage, trashStorage, versionStorage } from "./storage-figures";

type Part = "main" | "trashes" | "private" | "versions" | "visits" | "slots" | "stats";

// A part whose queries took longer than STATS_CACHE_THRESHOLD_MS (default 50 ms: on the bench's
// million files, the private-space and version sums take 0.5 to 1 s, being joins over every
// version) is kept in memory for STATS_CACHE_SECONDS (default 300); `expire` tells the client
// until when. Past that, the stale figures are still served at once while one recomputation
// runs in the background, so only the first request after a start waits (and the hourly
// stats.sample job warms the cache before anyone asks). Cheap parts are always fresh.
type Entry = { value: unknown; expiresAt: number; refreshing?: Promise<unknown> };
// On globalThis: the job worker (started from instrumentation) and the routes may be separate bundles of one process.
const store = globalThis as unknown as { __coffreStatsCache?: Map<Part, Entry> };
const cache = (store.__coffreStatsCache ??= new Map<Part, Entry>());
const thresholdMs = () => Number(process.env.STATS_CACHE_THRESHOLD_MS ?? 50);
const ttlMs = () => Number(process.env.STATS_CACHE_SECONDS ?? 300) * 1000;

async function compute<T>(name: Part, run: () => Promise<T>): Promise<{ value: T; expiresAt: number | null }> {
  const started = Date.now();
  const value = await run();
  if (Date.now() - started <= thresholdMs()) {
    cache.delete(name);
    return { value, expiresAt: null };
  }
  const expiresAt = Date.now() + ttlMs();
  cache.set(name, { value, expiresAt });
  return { value, expiresAt };
}

async function part<T>(name: Part, run: () => Promise<T>, expiries: number[]): Promise<T> {
  const hit = cache.get(name);
  if (hit && hit.expiresAt > Date.now()) {
    expiries.push(hit.expiresAt);
    return hit.value as T;
  }
  if (hit) {
    // Stale: served now (expiring now), recomputed once in the background.
    hit.refreshing ??= compute(name, run).catch(() => {
      hit.refreshing = undefined;
    });
    expiries.push(Date.now());
    return hit.value as T;
  }
  const { value, expiresAt } = await compute(name, run);
  if (expiresAt !== null) expiries.push(expiresAt);
  return value;
}

/** GET /stats?mask=: the parts the mask asks for (rest-interface.md, Stats). Administrators only. */
export async function getStats(ctx: AuthedCtx, query: StatsQuery): Promise<StatsResponse> {
  if (!isAdmin(ctx.actor.user)) throw forbidden("Administrators only");
  return statsFor(ctx.db, query.mask);
}

/** Computes (or serves from the cache) the parts of `mask`; the sample job calls it to warm the cache. */
export async function statsFor(db: DbOrTx, mask: number): Promise<StatsResponse> {
  const query = { mask };
  const has = (bit: number) => (query.mask & bit) !== 0;
  const expiries: number[] = [];
  const [main, trashes, priv, versions, visitList, slotFigures, stats] = await Promise.all([
    has(STATS_MASK.storage) ? part("main", () => mainStorage(db), expiries) : undefined,
    has(STATS_MASK.trashes) ? part("trashes", () => trashStorage(db), expiries) : undefined,
    has(STATS_MASK.private) ? part("private", () => privateStorage(db), expiries) : undefined,
    has(STATS_MASK.versions) ? part("versions", () => versionStorage(db), expiries) : undefined,
    has(STATS_MASK.visits) ? part("visits", () => visits(db), expiries) : undefined,
    has(STATS_MASK.slots) ? part("slots", () => slots(db), expiries) : undefined,
    has(STATS_MASK.stats) ? part("stats", async () => ({ days: await samplesUpToToday(db), largest_users: await largestUsers(db) }), expiries) : undefined,
  ]);
  const response: StatsResponse = { expire: Math.floor((expiries.length ? Math.min(...expiries) : Date.now()) / 1000) };
  if (main || trashes || priv || versions) {
    response.storage = {
      ...(main && { main }),
      ...(trashes && { trashes }),
      ...(priv && { private: priv }),
      ...(versions && { versions }),
    };
  }
  if (visitList) response.visits = visitList;
  if (slotFigures) response.slots = slotFigures;
  if (stats) {
    response.stats = stats;
    // No electronic signature on this platform yet: the contract's counters stand at zero.
    response.docsigning = { sign: 0, sign_personal: 0, timestamp: 0 };
  }
  return response;
}

/**
 * The daily samples, today's included: a platform whose hourly job has not run yet today (a first
 * start, a busy worker) takes today's sample now, so the dashboard never opens on an empty chart.
 */
async function samplesUpToToday(db: DbOrTx) {
  const now = new Date();
  const days = await listSamples(db, 30, now);
  if (days.at(-1)?.date === utcDay(now)) return days;
  await sampleStats(db, now);
  return listSamples(db, 30, now);
}

/** For tests and after bulk changes: the next request recomputes every part. */
export const ALL_PARTS = ALL_STATS;

export function forgetCachedStats() {
  cache.clear();
}
