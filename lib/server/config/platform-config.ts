import "server-only";
import { createHash } from "node:crypto";
import type { DbOrTx } from "@/db";
import { platformConfig } from "@/db/schema";
import { configSchema, DEFAULT_BRAND_COLOR, type PlatformConfig, type StoredLogo } from "@/lib/contracts/config";

// The schemas live with the contracts (shared with the web client); re-exported for the services.
export { configSchema, featuresSchema, smtpSchema, type PlatformConfig } from "@/lib/contracts/config";

export const DEFAULT_CONFIG: PlatformConfig = {
  platform_name: "Coffre",
  brand_color: DEFAULT_BRAND_COLOR,
  logo: null,
  session_limit: 7 * 24 * 60,
  session_idle: 24 * 60,
  password_min_length: 8,
  self_alert: false,
  trash_retention_days: 30,
  quota: null,
  organization_groups: false,
  mfa_required: false,
  mfa_otp: true,
  mfa_sms: false,
  mfa_webauthn: true,
  time_zone: "UTC",
  features: { trash: true, versioning: true, lock: true, direct_link: true, upload_link: true, edit: false, invitations: true, oauth2: true },
  smtp: {
    smtp_host: "",
    smtp_port: 25,
    smtp_auth: false,
    smtp_secure: false,
    smtp_username: "",
    smtp_password: "",
    smtp_from: "coffre@localhost",
    smtp_override: false,
  },
};

// Read on most requests (session limits): cache briefly per process; writes clear it.
let cached: { value: PlatformConfig; at: number } | undefined;
const TTL_MS = 2000;

export async function getPlatformConfig(db: DbOrTx): Promise<PlatformConfig> {
  if (cached && Date.now() - cached.at < TTL_MS) return cached.value;
  const value = await readStoredConfig(db);
  cached = { value, at: Date.now() };
  lastRead = value;
  return value;
}

// The configuration last read in this process, whatever its age: mails take their branding from
// it (see lastReadConfig). Never undefined once anything has read the configuration.
let lastRead: PlatformConfig | undefined;

/**
 * The configuration this process read last, or the defaults. Every service that renders a mail
 * reads the configuration just before (for the platform name), so this is the same snapshot it
 * got; renderMail stays synchronous and its ten callers unchanged.
 */
export function lastReadConfig(): PlatformConfig {
  return lastRead ?? DEFAULT_CONFIG;
}

/**
 * The version of a logo: part of a hash of its blob id, so that the public address changes with
 * each upload (caches keep the old one for good) without telling the blob id itself.
 */
export function logoVersion(logo: StoredLogo): string {
  return createHash("sha256").update(logo.blob_id).digest("hex").slice(0, 16);
}

/** The public address of the logo, relative to the site (GET /api/config/logo?v=...). */
export function logoPath(logo: StoredLogo | null): string | null {
  return logo ? `/api/config/logo?v=${logoVersion(logo)}` : null;
}

/** The configuration as stored now, bypassing the cache (for changes made in a transaction). */
export async function readStoredConfig(db: DbOrTx): Promise<PlatformConfig> {
  const stored = await db.select().from(platformConfig);
  const value = mergeConfig(DEFAULT_CONFIG, Object.fromEntries(stored.map((r) => [r.key, r.value])));
  lastRead = value;
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
