import { bigserial, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { identityProviders } from "./identity";
import { users } from "./users";

/**
 * A single sign-on under way (lib/server/sso): created when a browser is sent to the provider,
 * consumed once when it comes back. OIDC keeps the PKCE verifier and the nonce, found by the
 * SHA-256 of `state`; SAML keeps the AuthnRequest's ID (InResponseTo), then, once the assertion
 * is verified, the identity it carried until the browser completes with its one-time ticket.
 * `bindingHash` is the SHA-256 of the browser's binding cookie: a flow finishes only in the
 * browser that started it (null for an IdP-initiated SAML sign-in, which no browser started).
 * `userId` marks a flow a signed-in person started from their account page to connect the
 * provider to their own account: its identity is linked to that account, nobody is signed in.
 */
export const ssoFlows = pgTable(
  "sso_flows",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    providerId: integer("provider_id")
      .notNull()
      .references(() => identityProviders.id, { onDelete: "cascade" }),
    /** `oidc` or `saml2`. */
    protocol: text("protocol", { enum: ["oidc", "saml2"] }).notNull(),
    /** `pending` (sent to the provider) or `asserted` (SAML: verified, waiting for the browser). */
    status: text("status", { enum: ["pending", "asserted"] }).notNull().default("pending"),
    stateHash: text("state_hash"),
    requestId: text("request_id"),
    ticketHash: text("ticket_hash"),
    bindingHash: text("binding_hash"),
    codeVerifier: text("code_verifier"),
    nonce: text("nonce"),
    /** The account connecting this provider (lib/server/sso/start-sso-connect.ts); null for a sign-in. */
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    /** Where the browser goes once signed in: a path of this site. */
    next: text("next").notNull().default("/"),
    /** SAML: the verified identity between the assertion and the completion. */
    identity: jsonb("identity"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex("sso_flows_state_hash_idx").on(t.stateHash),
    uniqueIndex("sso_flows_request_id_idx").on(t.providerId, t.requestId),
    uniqueIndex("sso_flows_ticket_hash_idx").on(t.ticketHash),
    index("sso_flows_expires_at_idx").on(t.expiresAt),
  ],
);

/** SAML assertion IDs already used, kept until they expire: a replayed assertion is refused. */
export const ssoReplays = pgTable(
  "sso_replays",
  {
    providerId: integer("provider_id")
      .notNull()
      .references(() => identityProviders.id, { onDelete: "cascade" }),
    assertionId: text("assertion_id").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ name: "sso_replays_pkey", columns: [t.providerId, t.assertionId] }), index("sso_replays_expires_at_idx").on(t.expiresAt)],
);

export type SsoFlowRow = typeof ssoFlows.$inferSelect;
