import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgTable, serial, smallint, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { groups } from "./groups";
import { users } from "./users";

/**
 * An identity provider (the contract's Identity provider): a directory (ldap, adds, domino,
 * ms-graph) or a single sign-on provider (oidc, saml2). `settings` holds the type's fields
 * except its secrets, which live in `secrets`: AES-256-GCM under a key derived from the auth
 * secret (lib/server/identity/secrets.ts), never returned.
 */
export const identityProviders = pgTable(
  "identity_providers",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    type: text("type", { enum: ["ldap", "adds", "domino", "ms-graph", "oidc", "saml2"] }).notNull(),
    enable: boolean("enable").notNull().default(true),
    isAuthn: boolean("is_authn").notNull().default(true),
    isDirectory: boolean("is_directory").notNull().default(false),
    isSso: boolean("is_sso").notNull().default(false),
    matching: smallint("matching").notNull().default(0),
    /** The type-specific fields (contract names, flat dotted keys), secrets left out. */
    settings: jsonb("settings").notNull().default({}),
    /** Encrypted JSON of the secret fields (`v1.<iv>.<tag>.<ciphertext>`, base64url), or null. */
    secrets: text("secrets"),
    /** Last synchronisation: when it ended, `ok` or `error`, and its counters or message. */
    lastSyncAt: timestamp("last_sync_at", { withTimezone: true }),
    lastSyncStatus: text("last_sync_status"),
    lastSyncResult: jsonb("last_sync_result"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("identity_providers_name_idx").on(sql`lower(${t.name})`)],
);

/**
 * Which platform account or group a provider's entry became. One row per (provider, entry):
 * `externalId` is the provider's stable id (service.id, e.g. entryUUID, objectGUID, `sub`, NameID),
 * `dn` the entry's current distinguished name for directories (the user binds as it), `seenAt`
 * the last time a sign-in or a sync found it (purgeTime, deactivation).
 */
export const identityLinks = pgTable(
  "identity_links",
  {
    id: serial("id").primaryKey(),
    providerId: integer("provider_id")
      .notNull()
      .references(() => identityProviders.id, { onDelete: "cascade" }),
    /** `user` (userId set) or `group` (groupId set). */
    kind: text("kind", { enum: ["user", "group"] }).notNull(),
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    groupId: integer("group_id").references(() => groups.id, { onDelete: "cascade" }),
    externalId: text("external_id").notNull(),
    dn: text("dn"),
    seenAt: timestamp("seen_at", { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("identity_links_external_idx").on(t.providerId, t.kind, t.externalId),
    uniqueIndex("identity_links_user_idx").on(t.userId),
    uniqueIndex("identity_links_group_idx").on(t.groupId),
    check("identity_links_kind_check", sql`(${t.kind} = 'user' AND ${t.userId} IS NOT NULL AND ${t.groupId} IS NULL) OR (${t.kind} = 'group' AND ${t.groupId} IS NOT NULL AND ${t.userId} IS NULL)`),
    index("identity_links_dn_idx").on(t.providerId, sql`lower(${t.dn})`),
  ],
);

export type IdentityProviderRow = typeof identityProviders.$inferSelect;
export type IdentityLinkRow = typeof identityLinks.$inferSelect;
