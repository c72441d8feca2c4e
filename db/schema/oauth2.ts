import { bigint, bigserial, index, integer, jsonb, pgTable, serial, smallint, text, timestamp } from "drizzle-orm/pg-core";
import { sessions } from "./sessions";
import { users } from "./users";

/**
 * An OAuth2 application (the contract's OAuth2 application; api.md, "OAuth2"). type 0
 * client-to-server (authorization code with PKCE), type 1 server-to-server (client credentials,
 * acting as `created_by`). Only the SHA-256 of the secret is kept: the secret is 256 random bits.
 */
export const oauth2Apps = pgTable(
  "oauth2_apps",
  {
    id: serial("id").primaryKey(),
    clientId: text("client_id").notNull().unique("oauth2_apps_client_id_key"),
    secretHash: text("secret_hash").notNull(),
    name: text("name").notNull(),
    description: text("description"),
    editor: text("editor"),
    editorUrl: text("editor_url"),
    type: smallint("type").notNull(),
    /** Which bit of the connection option oauth_blocked applies: web (1), mobile (2), mail_connector (4). */
    kind: text("kind").notNull().default("web"),
    scope: text("scope").notNull(),
    callbackUris: jsonb("callback_uris").$type<string[]>().notNull(),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("oauth2_apps_created_by_idx").on(t.createdBy)],
);

/**
 * One authorisation of an application by a user (a code exchanged, or a client-credentials
 * issuance): the "token" that GET /oauth2/user/tokens lists and the revoke operations delete, and
 * the family of every access and refresh token issued from it (a reused refresh token revokes it).
 */
export const oauth2Grants = pgTable(
  "oauth2_grants",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /** The public handle of the grant, `token` in the API; random, so it reveals nothing. */
    handle: text("handle").notNull().unique("oauth2_grants_handle_key"),
    appId: integer("app_id").notNull().references(() => oauth2Apps.id, { onDelete: "cascade" }),
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    scope: text("scope").notNull(),
    /** `code` (one per authorisation) or `client` (client credentials: one per application, reused). */
    flow: text("flow").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("oauth2_grants_app_id_idx").on(t.appId), index("oauth2_grants_user_id_idx").on(t.userId)],
);

/** The access tokens of a grant: each is a row of `sessions` (with `scope` and `expires_at`). */
export const oauth2AccessTokens = pgTable(
  "oauth2_access_tokens",
  {
    sessionId: bigint("session_id", { mode: "number" })
      .primaryKey()
      .references(() => sessions.id, { onDelete: "cascade" }),
    grantId: bigint("grant_id", { mode: "number" })
      .notNull()
      .references(() => oauth2Grants.id, { onDelete: "cascade" }),
  },
  (t) => [index("oauth2_access_tokens_grant_id_idx").on(t.grantId)],
);

/** Refresh tokens, hashed; a rotated one keeps its row (used_at) so that its reuse is recognised. */
export const oauth2RefreshTokens = pgTable(
  "oauth2_refresh_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    grantId: bigint("grant_id", { mode: "number" })
      .notNull()
      .references(() => oauth2Grants.id, { onDelete: "cascade" }),
    /** The access token issued with it: rotation ends it (an offline token would otherwise live on). */
    sessionId: bigint("session_id", { mode: "number" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("oauth2_refresh_tokens_grant_id_idx").on(t.grantId)],
);

/**
 * Authorization codes, hashed, single use, 60 s; PKCE S256 challenge always present. A used code
 * keeps its row (used_at, grant_id) so that a second use revokes what the first one issued
 * (RFC 6749 4.1.2).
 */
export const oauth2Codes = pgTable("oauth2_codes", {
  codeHash: text("code_hash").primaryKey(),
  appId: integer("app_id")
    .notNull()
    .references(() => oauth2Apps.id, { onDelete: "cascade" }),
  userId: integer("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  redirectUri: text("redirect_uri").notNull(),
  scope: text("scope").notNull(),
  codeChallenge: text("code_challenge").notNull(),
  codeChallengeMethod: text("code_challenge_method").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  usedAt: timestamp("used_at", { withTimezone: true }),
  grantId: bigint("grant_id", { mode: "number" }).references(() => oauth2Grants.id, { onDelete: "set null" }),
});

export type OAuth2App = typeof oauth2Apps.$inferSelect;
export type OAuth2Grant = typeof oauth2Grants.$inferSelect;
