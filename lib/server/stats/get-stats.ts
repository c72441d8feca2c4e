import { STATS_MASK, type StatsQuery, type StatsResponse } from "@/lib/contracts/stats";
import { type AuthedCtx, isAdmin } from "../context";
import { forbidden } from "../errors";
import { visits, slots } from "./activity-figures";
import { listSamples } from "./list-samples";
import { largestUsers, mainStorage, privateStorage, trashStorage, versionStorage } from "./storage-figures";

type Part = "main" | "trashes" | "private" | "versions" | "visits" | "slots" | "stats";

// A part whose queries took longer than STATS_CACHE_THRESHOLD_MS (default 50 ms: sums over a
// large platform's versions) is kept for STATS_CACHE_SECONDS (default 300) and served from
// memory meanwhile; `expire` tells the client until when. Cheap parts are always fresh.
const cache = new Map<Part, { value: unknown; expiresAt: number }>();
const thresholdMs = () => Number(process.env.STATS_CACHE_THRESHOLD_MS ?? 50);
const ttlMs = () => Number(process.env.STATS_CACHE_SECONDS ?? 300) * 1000;

async function part<T>(name: Part, compute: () => Promise<T>, expiries: number[]): Promise<T> {
  const now = Date.now();
  const hit = cache.get(name);
  if (hit && hit.expiresAt > now) {
    expiries.push(hit.expiresAt);
    return hit.value as T;
  }
  const value = await compute();
  const tookMs = Date.now() - now;
  if (tookMs > thresholdMs()) {
    const expiresAt = Date.now() + ttlMs();
    cache.set(name, { value, expiresAt });
    expiries.push(expiresAt);
  } else {
    cache.delete(name);
  }
  return value;
}

/** GET /stats?mask=: the parts the mask asks for (rest-interface.md, Stats). Administrators only. */
export async function getStats(ctx: AuthedCtx, query: StatsQuery): Promise<StatsResponse> {
  if (!isAdmin(ctx.actor.user)) throw forbidden("Administrators only");
  const db = ctx.db;
  const has = (bit: number) => (query.mask & bit) !== 0;
  const expiries: number[] = [];
  const [main, trashes, priv, versions, visitList, slotFigures, stats] = await Promise.all([
    has(STATS_MASK.storage) ? part("main", () => mainStorage(db), expiries) : undefined,
    has(STATS_MASK.trashes) ? part("trashes", () => trashStorage(db), expiries) : undefined,
    has(STATS_MASK.private) ? part("private", () => privateStorage(db), expiries) : undefined,
    has(STATS_MASK.versions) ? part("versions", () => versionStorage(db), expiries) : undefined,
    has(STATS_MASK.visits) ? part("visits", () => visits(db), expiries) : undefined,
    has(STATS_MASK.slots) ? part("slots", () => slots(db), expiries) : undefined,
    has(STATS_MASK.stats) ? part("stats", async () => ({ days: await listSamples(db), largest_users: await largestUsers(db) }), expiries) : undefined,
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

/** For tests and after bulk changes: the next request recomputes every part. */
export function forgetCachedStats() {
  cache.clear();
}
