import type { DbOrTx } from "@/db";
import { platformConfig } from "@/db/schema";
import { configSchema, type PlatformConfig } from "@/lib/contracts/config";

// The schemas live with the contracts (shared with the web client); re-exported for the services.
export { configSchema, featuresSchema, smtpSchema, type PlatformConfig } from "@/lib/contracts/config";

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
  const value = await readStoredConfig(db);
  cached = { value, at: Date.now() };
  return value;
}

/** The configuration as stored now, bypassing the cache (for changes made in a transaction). */
export async function readStoredConfig(db: DbOrTx): Promise<PlatformConfig> {
  const stored = await db.select().from(platformConfig);
  return mergeConfig(DEFAULT_CONFIG, Object.fromEntries(stored.map((r) => [r.key, r.value])));
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
