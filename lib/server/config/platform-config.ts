import { z } from "zod";
import type { DbOrTx } from "@/db";
import { platformConfig } from "@/db/schema";

export const featuresSchema = z.object({
  trash: z.boolean(),
  versioning: z.boolean(),
  lock: z.boolean(),
  direct_link: z.boolean(),
  upload_link: z.boolean(),
  edit: z.boolean(),
  invitations: z.boolean(),
});

export const smtpSchema = z.object({
  smtp_host: z.string(),
  smtp_port: z.number().int().min(0).max(65535),
  smtp_auth: z.boolean(),
  smtp_secure: z.boolean(),
  smtp_username: z.string(),
  smtp_password: z.string(),
  smtp_from: z.string(),
});

export const configSchema = z.object({
  platform_name: z.string().min(1).max(100),
  /** Longest life of a session, in minutes. */
  session_limit: z.number().int().min(1).max(525_600),
  /** Longest pause between two requests of a session, in minutes. */
  session_idle: z.number().int().min(1).max(525_600),
  password_min_length: z.number().int().min(6).max(128),
  self_alert: z.boolean(),
  trash_retention_days: z.number().int().min(0).max(36_500),
  /** Platform quota in bytes; null means none. */
  quota: z.number().int().min(0).nullable(),
  /** Create a group named after a user's organization and join the user to it. */
  organization_groups: z.boolean(),
  features: featuresSchema,
  smtp: smtpSchema,
});

export type PlatformConfig = z.infer<typeof configSchema>;

export const DEFAULT_CONFIG: PlatformConfig = {
  platform_name: "Coffre",
  session_limit: 7 * 24 * 60,
  session_idle: 24 * 60,
  password_min_length: 8,
  self_alert: false,
  trash_retention_days: 30,
  quota: null,
  organization_groups: false,
  features: { trash: true, versioning: true, lock: true, direct_link: true, upload_link: true, edit: false, invitations: true },
  smtp: {
    smtp_host: "",
    smtp_port: 25,
    smtp_auth: false,
    smtp_secure: false,
    smtp_username: "",
    smtp_password: "",
    smtp_from: "coffre@localhost",
  },
};

// Read on most requests (session limits): cache briefly per process; writes clear it.
let cached: { value: PlatformConfig; at: number } | undefined;
const TTL_MS = 2000;

export async function getPlatformConfig(db: DbOrTx): Promise<PlatformConfig> {
  if (cached && Date.now() - cached.at < TTL_MS) return cached.value;
  const stored = await db.select().from(platformConfig);
  const value = mergeConfig(DEFAULT_CONFIG, Object.fromEntries(stored.map((r) => [r.key, r.value])));
  cached = { value, at: Date.now() };
  return value;
}

export function forgetCachedConfig() {
  cached = undefined;
}

export function mergeConfig(base: PlatformConfig, patch: Record<string, unknown>): PlatformConfig {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (!(key in base)) continue;
    const current = (base as Record<string, unknown>)[key];
    merged[key] = isPlainObject(current) && isPlainObject(value) ? { ...current, ...value } : value;
  }
  return configSchema.parse(merged);
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
