import { z } from "zod";

/** The contract's bits of GET /stats?mask=. Several may be combined (mask=127 asks for all). */
export const STATS_MASK = {
  storage: 1,
  trashes: 2,
  slots: 4,
  visits: 8,
  versions: 16,
  stats: 32,
  private: 64,
} as const;
export const ALL_STATS = 127;

/** `mask` defaults to 1 (basic storage); bits outside the contract's seven are refused. */
export const statsQuery = z.object({
  mask: z.coerce.number().int().min(1).max(ALL_STATS).default(STATS_MASK.storage),
});
export type StatsQuery = z.output<typeof statsQuery>;

const userSize = z.object({ id: z.string(), user: z.string(), login: z.string(), size: z.number() });
export type UserSize = z.infer<typeof userSize>;

/** One day of the dashboard's charts (the stats.sample job). */
export const statsDay = z.object({
  date: z.string(),
  storage_used: z.number(),
  active_users: z.number(),
  uploads: z.number(),
  downloads: z.number(),
});
export type StatsDay = z.infer<typeof statsDay>;

/**
 * The contract's statistics. `storage.archive` and `storage.outlook` are obsolete (the contract)
 * and never written. Every part is present only when its bit was asked for; `docsigning` comes
 * with the `stats` bit (the contract names no bit of its own).
 */
export const statsResponse = z.object({
  /** Unix seconds until which these figures are served from the cache; recomputed after. */
  expire: z.number(),
  storage: z
    .object({
      /**
       * Bytes of every version, trashed ones included (what quotas count); `quota` null = none, then
       * `free` is the disk's. `free` and `percent` are null when neither a quota nor the store bounds
       * the space (an object store, STORAGE=s3, reports no capacity): unknown, never a made-up 0.
       */
      main: z.object({ used: z.number(), free: z.number().nullable(), quota: z.number().nullable(), percent: z.number().nullable() }).optional(),
      trashes: z.object({ total: z.number(), users: z.array(userSize) }).optional(),
      private: z.object({ total: z.number(), users: z.array(userSize) }).optional(),
      /** Versions other than each file's current one: how many and their bytes. */
      versions: z.object({ count: z.number(), size: z.number() }).optional(),
    })
    .optional(),
  visits: z
    .array(z.object({ id: z.string(), user: z.string(), login: z.string(), last_seen: z.string(), actions: z.number(), external: z.boolean() }))
    .optional(),
  slots: z
    .object({
      /** null: no licence limit on this platform. */
      allowed: z.number().nullable(),
      used: z.number(),
      billable: z.number(),
      recents: z.array(z.object({ id: z.string(), user: z.string(), login: z.string(), creation: z.string() })),
    })
    .optional(),
  stats: z
    .object({
      days: z.array(statsDay),
      /** The users whose uploads weigh most (every version they created). */
      largest_users: z.array(userSize),
    })
    .optional(),
  docsigning: z.object({ sign: z.number(), sign_personal: z.number(), timestamp: z.number() }).optional(),
});
export type StatsResponse = z.infer<typeof statsResponse>;
