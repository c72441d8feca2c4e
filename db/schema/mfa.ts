import { bigint, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./users";

/**
 * A user's second factors (one row per user who ever started one). TOTP secrets are stored
 * encrypted (AES-256-GCM under a key derived from the auth secret, lib/server/mfa/secret-box.ts):
 * a database dump alone does not let anyone compute codes.
 */
export const userMfa = pgTable("user_mfa", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  otpSecret: text("otp_secret"),
  otpEnabledAt: timestamp("otp_enabled_at", { withTimezone: true }),
  /** A secret shown by POST /account/mfa/otp and not yet confirmed with a code. */
  otpPendingSecret: text("otp_pending_secret"),
  otpPendingAt: timestamp("otp_pending_at", { withTimezone: true }),
  smsPhone: text("sms_phone"),
  smsEnabledAt: timestamp("sms_enabled_at", { withTimezone: true }),
  /** The WebAuthn user handle (random, never the account id), base64url. */
  webauthnUserId: text("webauthn_user_id"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Single-use recovery codes; only a keyed hash of each is stored. */
export const mfaRecoveryCodes = pgTable(
  "mfa_recovery_codes",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("mfa_recovery_codes_user_id_idx").on(t.userId, t.codeHash)],
);

/** Security keys (WebAuthn credentials). */
export const mfaWebauthnCredentials = pgTable(
  "mfa_webauthn_credentials",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The credential id, base64url, unique across the platform. */
    credentialId: text("credential_id").notNull().unique("mfa_webauthn_credentials_credential_id_key"),
    /** The COSE public key, base64url. */
    publicKey: text("public_key").notNull(),
    counter: bigint("counter", { mode: "number" }).notNull().default(0),
    transports: jsonb("transports").$type<string[]>().notNull().default([]),
    name: text("name").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (t) => [index("mfa_webauthn_credentials_user_id_idx").on(t.userId)],
);

/**
 * Server-side state of one second-factor exchange: a sign-in waiting for its second step
 * (`sign_in`, found by the hash of its mfa_token), a security-key registration (`webauthn_register`)
 * or an SMS enrolment (`sms_enrol`). Lives minutes; expired rows are removed as new ones are made.
 */
export const mfaChallenges = pgTable(
  "mfa_challenges",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: ["sign_in", "webauthn_register", "sms_enrol"] }).notNull(),
    tokenHash: text("token_hash").unique("mfa_challenges_token_hash_key"),
    /** The WebAuthn challenge (base64url) the browser must sign. */
    webauthnChallenge: text("webauthn_challenge"),
    /** The last SMS code sent (keyed hash), when, and to which number (sms_enrol). */
    codeHash: text("code_hash"),
    codeSentAt: timestamp("code_sent_at", { withTimezone: true }),
    phone: text("phone"),
    attempts: integer("attempts").notNull().default(0),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("mfa_challenges_user_id_idx").on(t.userId, t.purpose), index("mfa_challenges_expires_at_idx").on(t.expiresAt)],
);

/** TOTP time steps already accepted, so a code seen once is refused for the rest of its window. */
export const mfaTotpSteps = pgTable(
  "mfa_totp_steps",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    step: bigint("step", { mode: "number" }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: "mfa_totp_steps_pkey", columns: [t.userId, t.step] })],
);

export type UserMfa = typeof userMfa.$inferSelect;
export type MfaChallenge = typeof mfaChallenges.$inferSelect;
export type WebauthnCredentialRow = typeof mfaWebauthnCredentials.$inferSelect;
