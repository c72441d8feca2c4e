import "server-only";
import type { DbOrTx } from "@/db";
import { ALL_STATS, STATS_MASK, type StatsQuery, type StatsResponse } from "@/lib/contracts/stats";
import { type AuthedCtx, isAdmin } from "../context";
import { forbidden } from "../errors";
import { usedOnPlatform } from "../quotas/assert-quota";
import { activeUsersOver } from "./day-figures";
import { visits, slots } from "./activity-figures";
import { listPastDays } from "./list-samples";
import { storageByType } from "./storage-by-type";
import { largestUsers, mainStorage, privateStorage, trashStorage, versionStorage } from "./storage-figures";
import { todayFigures } from "./today-figures";

type Part = "trashes" | "private" | "versions" | "visits" | "slots" | "types";

// A costly part whose queries took longer than STATS_CACHE_THRESHOLD_MS (default 50 ms: on the
// bench's million files, the private-space and version sums take 0.5 to 1 s, being joins over
// every version) is kept in memory for STATS_CACHE_SECONDS (default 300); `expire` tells the
// client until when. Past that, the stale figures are still served at once while one
// recomputation runs in the background, so only the first request after a start waits (and the
// hourly stats.sample job warms the cache before anyone asks).
//
// Issue 32: what reads counters or an index range is never cached, whatever it cost once:
// `storage.main` (the usage counters), the days of `stats` (samples, and today live), the largest
// users and the active users of 30 days. A cold start had cached "0 B used" for five minutes, and
// a day's first sample stood for "today" until the next hourly job. The parts that sum stored
// versions carry the platform's used bytes they were computed at: once those have moved and the
// figures are older than STATS_CACHE_FRESHEN_SECONDS (default 10), they are recomputed before
// answering, so a part warmed on an empty platform never outlives its first uploads.
type Entry = { value: unknown; expiresAt: number; computedAt: number; used?: number; refreshing?: Promise<unknown> };
// On globalThis: the job worker (started from instrumentation) and the routes may be separate bundles of one process.
const store = globalThis as unknown as { __coffreStatsCache?: Map<Part, Entry> };
const cache = (store.__coffreStatsCache ??= new Map<Part, Entry>());
const thresholdMs = () => Number(process.env.STATS_CACHE_THRESHOLD_MS ?? 50);
const ttlMs = () => Number(process.env.STATS_CACHE_SECONDS ?? 300) * 1000;
const freshenMs = () => Number(process.env.STATS_CACHE_FRESHEN_SECONDS ?? 10) * 1000;

async function compute<T>(name: Part, run: () => Promise<T>, used?: number): Promise<{ value: T; expiresAt: number | null }> {
  const started = Date.now();
  const value = await run();
  if (Date.now() - started <= thresholdMs()) {
    cache.delete(name);
    return { value, expiresAt: null };
  }
  const expiresAt = Date.now() + ttlMs();
  cache.set(name, { value, expiresAt, computedAt: started, used });
  return { value, expiresAt };
}

/** `used`: the platform's bytes now, for the parts that sum stored versions (see above). */
async function part<T>(name: Part, run: () => Promise<T>, expiries: number[], used?: number): Promise<T> {
  const hit = cache.get(name);
  const outdated = hit !== undefined && used !== undefined && hit.used !== used && Date.now() - hit.computedAt > freshenMs();
  if (hit && !outdated && hit.expiresAt > Date.now()) {
    expiries.push(hit.expiresAt);
    return hit.value as T;
  }
  if (hit && !outdated) {
    // Stale: served now (expiring now), recomputed once in the background.
    hit.refreshing ??= compute(name, run, used).catch(() => {
      hit.refreshing = undefined;
    });
    expiries.push(Date.now());
    return hit.value as T;
  }
  const { value, expiresAt } = await compute(name, run, used);
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
  const now = new Date();
  const sumsVersions = has(STATS_MASK.trashes | STATS_MASK.private | STATS_MASK.versions | STATS_MASK.stats);
  const used = sumsVersions ? await usedOnPlatform(db) : undefined;
  const [main, trashes, priv, versions, visitList, slotFigures, pastDays, largest, types, active30, today] = await Promise.all([
    has(STATS_MASK.storage) ? mainStorage(db) : undefined,
    has(STATS_MASK.trashes) ? part("trashes", () => trashStorage(db), expiries, used) : undefined,
    has(STATS_MASK.private) ? part("private", () => privateStorage(db), expiries, used) : undefined,
    has(STATS_MASK.versions) ? part("versions", () => versionStorage(db), expiries, used) : undefined,
    has(STATS_MASK.visits) ? part("visits", () => visits(db), expiries) : undefined,
    has(STATS_MASK.slots) ? part("slots", () => slots(db), expiries) : undefined,
    has(STATS_MASK.stats) ? listPastDays(db, 30, now) : undefined,
    has(STATS_MASK.stats) ? largestUsers(db) : undefined,
    has(STATS_MASK.stats) ? part("types", () => storageByType(db), expiries, used) : undefined,
    has(STATS_MASK.stats) ? activeUsersOver(db, 30, now) : undefined,
    has(STATS_MASK.stats) ? todayFigures(db, now) : undefined,
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
  if (pastDays && largest && types && active30 !== undefined && today) {
    // Past days from the samples, today live: the last day is always today.
    const days = [...pastDays, today];
    response.stats = { days, largest_users: largest, storage_by_type: types, active_users_30d: active30 };
    response.docsigning = { sign: days.reduce((sum, d) => sum + d.signatures, 0), sign_personal: 0, timestamp: 0 };
  }
  return response;
}

/** For tests and after bulk changes: the next request recomputes every part. */
export const ALL_PARTS = ALL_STATS;

export function forgetCachedStats() {
  cache.clear();
}
