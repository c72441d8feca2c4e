import { z } from "zod";
import { LANGUAGES } from "./users";

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
  smtp_host: z.string().trim().max(255),
  smtp_port: z.number().int().min(0).max(65535),
  smtp_auth: z.boolean(),
  smtp_secure: z.boolean(),
  smtp_username: z.string().max(255),
  smtp_password: z.string().max(1024),
  smtp_from: z.string().trim().max(255),
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

/** What GET /config shows in place of a stored SMTP password; sent back, it keeps the stored one. */
export const PASSWORD_MASK = "********";

/**
 * PUT /config: any subset of the configuration, nested objects included. Unknown keys are
 * refused so a misspelt option is a 400 instead of a silent no-op.
 */
export const updateConfigBody = configSchema
  .extend({ features: featuresSchema.partial().strict(), smtp: smtpSchema.partial().strict() })
  .partial()
  .strict();
export type ConfigPatch = z.output<typeof updateConfigBody>;

/** GET /config: the whole configuration, the SMTP password masked. */
export const configResponse = configSchema;

/** GET /publicconfig: what a signed-out page may know; nothing secret. */
export const publicConfigResponse = z.object({
  platform_name: z.string(),
  features: featuresSchema,
  password_min_length: z.number(),
  languages: z.array(z.enum(LANGUAGES)),
  version: z.string(),
});

// Older clients of the contract send these switches as 0/1.
const switchValue = z
  .union([z.boolean(), z.literal(0), z.literal(1), z.enum(["0", "1", "true", "false"])])
  .transform((v) => v === true || v === 1 || v === "1" || v === "true");

/** POST /config/smtp/test: the contract's fields, tried without being saved. */
export const smtpTestBody = z.object({
  smtp_host: z.string().trim().min(1).max(255),
  smtp_port: z.coerce.number().int().min(1).max(65535).default(25),
  smtp_auth: switchValue.default(false),
  smtp_secure: switchValue.default(false),
  smtp_username: z.string().max(255).default(""),
  smtp_password: z.string().max(1024).default(""),
  smtp_debug: switchValue.default(false),
  smtp_from: z.string().trim().min(1).max(255).optional(),
  /** Where the test mail goes; the administrator's own address by default. */
  to: z.string().trim().min(3).max(1024).optional(),
});
export type SmtpTestInput = z.output<typeof smtpTestBody>;

export const smtpTestResponse = z.object({ ok: z.literal(true), response: z.string(), log: z.array(z.string()).optional() });
