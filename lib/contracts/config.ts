import { z } from "zod";
import { canonicalTimeZone, DEFAULT_TIME_ZONE } from "./time-zones";
import { LANGUAGES } from "./users";

export const featuresSchema = z.object({
  trash: z.boolean(),
  versioning: z.boolean(),
  lock: z.boolean(),
  direct_link: z.boolean(),
  upload_link: z.boolean(),
  edit: z.boolean(),
  invitations: z.boolean(),
  /** OAuth2 applications (issue 16): the authorization server answers, and OAuth2 tokens work, only when on. */
  oauth2: z.boolean(),
});

/** An IANA time zone name that Intl knows, kept as Intl names it ("utc" becomes "UTC"). */
export const timeZoneSchema = z
  .string()
  .trim()
  .max(64)
  .transform((name, ctx) => {
    const known = canonicalTimeZone(name);
    if (known) return known;
    ctx.addIssue({ code: "custom", message: "An IANA time zone name, such as Europe/Paris or UTC" });
    return z.NEVER;
  });

export const smtpSchema = z.object({
  smtp_host: z.string().trim().max(255),
  smtp_port: z.number().int().min(0).max(65535),
  smtp_auth: z.boolean(),
  smtp_secure: z.boolean(),
  smtp_username: z.string().max(255),
  smtp_password: z.string().max(1024),
  smtp_from: z.string().trim().max(255),
  /**
   * The console's settings (host, port, security, user, password) replace those of SMTP_URL. Off,
   * SMTP_URL wins when it is set; the sender (`smtp_from`) is always the console's.
   */
  smtp_override: z.boolean(),
});

/** The accent colour of the platform's pages and mails: `#rrggbb`, kept in lower case. */
export const brandColorSchema = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, "A colour as #rrggbb")
  .transform((v) => v.toLowerCase());

/** The accent the pages are designed with (app/globals.css, --accent). */
export const DEFAULT_BRAND_COLOR = "#2f5bd3";

/**
 * The stored logo: a blob re-encoded by the server (never the uploaded bytes). Only the logo
 * services write it; PUT /config cannot, or it could point the public logo at any blob.
 */
export const storedLogoSchema = z.object({ blob_id: z.string().min(1), mime: z.enum(["image/png"]), width: z.number().int(), height: z.number().int() });
export type StoredLogo = z.infer<typeof storedLogoSchema>;

export const configSchema = z.object({
  platform_name: z.string().min(1).max(100),
  brand_color: brandColorSchema,
  logo: storedLogoSchema.nullable(),
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
  /** Every account must set up a second factor (the API answers 401 mfa_enrollment_required until it has one). */
  mfa_required: z.boolean(),
  /** Which second factors people may set up (the User's can_mfa_* flags); those set up keep working. */
  mfa_otp: z.boolean(),
  /** SMS codes go through the platform's SMS provider (SMS_PROVIDER): switch on once it reaches phones. */
  mfa_sms: z.boolean(),
  mfa_webauthn: z.boolean(),
  /**
   * The platform's time zone (IANA): connection hours are entered and enforced in it. UTC keeps the
   * contract's GMT hours. A stored name the runtime no longer knows reads as UTC rather than failing.
   */
  time_zone: timeZoneSchema.catch(DEFAULT_TIME_ZONE),
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
  .omit({ logo: true })
  .extend({ time_zone: timeZoneSchema, features: featuresSchema.partial().strict(), smtp: smtpSchema.partial().strict() })
  .partial()
  .strict();
export type ConfigPatch = z.output<typeof updateConfigBody>;

/** GET /config: the whole configuration, the SMTP password masked, the logo as its public address. */
export const configResponse = configSchema.omit({ logo: true }).extend({ logo_url: z.string().nullable() });
export type ConfigView = z.infer<typeof configResponse>;

/** POST /config/logo: where the new logo is served. */
export const logoResponse = z.object({ logo_url: z.string() });

/** GET /publicconfig: what a signed-out page may know; nothing secret. */
export const publicConfigResponse = z.object({
  platform_name: z.string(),
  brand_color: z.string(),
  /** Where the logo is served (GET /config/logo, versioned); null when there is none. */
  logo_url: z.string().nullable(),
  features: featuresSchema,
  password_min_length: z.number(),
  languages: z.array(z.enum(LANGUAGES)),
  version: z.string(),
});

// Older clients of the contract send these switches as 0/1.
const switchValue = z
  .union([z.boolean(), z.literal(0), z.literal(1), z.enum(["0", "1", "true", "false"])])
  .transform((v) => v === true || v === 1 || v === "1" || v === "true");

/**
 * POST /config/smtp/test: the contract's fields, tried without being saved. With `in_force`
 * (beyond the contract), the settings mail goes through now are tried instead (GET /config/smtp:
 * SMTP_URL's or the console's), and the connection fields are ignored.
 */
export const smtpTestBody = z
  .object({
    smtp_host: z.string().trim().min(1).max(255).optional(),
    smtp_port: z.coerce.number().int().min(1).max(65535).default(25),
    smtp_auth: switchValue.default(false),
    smtp_secure: switchValue.default(false),
    smtp_username: z.string().max(255).default(""),
    smtp_password: z.string().max(1024).default(""),
    smtp_debug: switchValue.default(false),
    smtp_from: z.string().trim().min(1).max(255).optional(),
    /** Where the test mail goes; the administrator's own address by default. */
    to: z.string().trim().min(3).max(1024).optional(),
    in_force: switchValue.default(false),
  })
  .superRefine((body, ctx) => {
    if (!body.in_force && body.smtp_host === undefined) ctx.addIssue({ code: "custom", path: ["smtp_host"], message: "Required, unless in_force is set" });
  });
export type SmtpTestInput = z.output<typeof smtpTestBody>;

export const smtpTestResponse = z.object({ ok: z.literal(true), response: z.string(), log: z.array(z.string()).optional() });

/** Relative luminance of a #rrggbb colour (WCAG 2). */
export function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
}

/** WCAG contrast ratio between two #rrggbb colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** White or near-black, whichever reads better on the given background. */
export function textOn(hex: string): "#ffffff" | "#15191f" {
  return contrastRatio(hex, "#ffffff") >= contrastRatio(hex, "#15191f") ? "#ffffff" : "#15191f";
}

/** The colour mixed toward black (amount 0..1): the hover shade of an accent. */
export function darken(hex: string, amount: number): string {
  const part = (i: number) => Math.round(parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) * (1 - amount)).toString(16).padStart(2, "0");
  return `#${part(0)}${part(1)}${part(2)}`;
}

/** The colour mixed toward white (amount 0..1): the soft background shade of an accent. */
export function lighten(hex: string, amount: number): string {
  const part = (i: number) => {
    const c = parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16);
    return Math.round(c + (255 - c) * amount).toString(16).padStart(2, "0");
  };
  return `#${part(0)}${part(1)}${part(2)}`;
}

/**
 * The accent as buttons and links use it: the brand colour, darkened just enough for white text
 * (buttons) to reach WCAG AA (4.5:1) when an administrator picks a light one.
 */
export function readableAccent(hex: string): string {
  let color = hex.toLowerCase();
  for (let step = 0; step < 20 && contrastRatio(color, "#ffffff") < 4.5; step++) color = darken(color, 0.08);
  return color;
}

/** Where one SMTP setting in force comes from: SMTP_URL, the console (PUT /config), or the built-in default. */
export const SMTP_SOURCES = ["environment", "console", "default"] as const;
export type SmtpSource = (typeof SMTP_SOURCES)[number];
const setting = <T extends z.ZodType>(value: T) => z.object({ value, source: z.enum(SMTP_SOURCES) });

/**
 * GET /config/smtp (administrators): the SMTP settings mail goes through now, each with its
 * source. Never a password: only whether one is set.
 */
export const smtpSettingsResponse = z.object({
  /** Where the connection settings come from; null when mail waits in the outbox (no SMTP). */
  origin: z.enum(["environment", "console"]).nullable(),
  /** SMTP_URL is set in the server's environment. */
  environment: z.boolean(),
  /** The console's settings replace SMTP_URL's (configuration smtp.smtp_override). */
  override: z.boolean(),
  host: setting(z.string()),
  port: setting(z.number()),
  /** tls: TLS from the start (SMTPS); starttls: upgraded when the server offers it; starttls_required: or refused. */
  security: setting(z.enum(["tls", "starttls", "starttls_required"])),
  user: setting(z.string()),
  password: setting(z.boolean()),
  from: setting(z.string()),
});
export type SmtpSettingsView = z.infer<typeof smtpSettingsResponse>;
