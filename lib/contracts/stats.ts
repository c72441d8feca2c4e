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

/**
 * One day of the dashboard's charts. The last day is always today, computed from the live data at
 * each request (never cached); the days before come from the daily samples (the stats.sample job).
 */
export const statsDay = z.object({
  /** The UTC day, YYYY-MM-DD. */
  date: z.string(),
  /** Bytes stored: today's equals `storage.main.used`; a past day's is its last sample. */
  storage_used: z.number(),
  /** Accounts that used a session or signed in that day (a past day: as of its last sample). */
  active_users: z.number(),
  /** Versions created that day. */
  uploads: z.number(),
  downloads: z.number(),
  /** Added by issue 32. Signature requests completed (done) that day; a mass request counts its signers' requests, not its parent. */
  signatures: z.number(),
  /** Added by issue 32. Validation workflows (flux 1 and 4) closed validated that day. */
  validations: z.number(),
});
export type StatsDay = z.infer<typeof statsDay>;

/** The families of `stats.storage_by_type`, always all of them, in this order. */
export const STORAGE_TYPES = ["documents", "images", "video", "audio", "archives", "other"] as const;
export type StorageType = (typeof STORAGE_TYPES)[number];

/**
 * Storage by type (issue 32): every version (trashed included, as `storage.main.used` counts
 * them) by its family, from its MIME type and, for office files and text, its name's extension.
 * The sizes add up to `main.used`; `count` is the number of versions.
 */
export const storageByType = z.array(z.object({ type: z.enum(STORAGE_TYPES), size: z.number(), count: z.number() }));
export type StorageByType = z.infer<typeof storageByType>;

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
      /** Added by issue 32. */
      storage_by_type: storageByType,
      /** Added by issue 32. Accounts that used a session or signed in over the last 30 days, each counted once. */
      active_users_30d: z.number(),
    })
    .optional(),
  /**
   * Comes with the `stats` bit. `sign`: signature requests completed over the days of `stats.days`
   * (the sum of their `signatures`); no personal-certificate signature nor timestamp counter
   * exists on this platform, so `sign_personal` and `timestamp` stand at zero.
   */
  docsigning: z.object({ sign: z.number(), sign_personal: z.number(), timestamp: z.number() }).optional(),
});
export type StatsResponse = z.infer<typeof statsResponse>;
