import { type AnyPgColumn, bigint, bigserial, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./users";

// Every token (API bearer, web session, OAuth2) is one row; only its SHA-256 is stored.
export const sessions = pgTable(
  "sessions",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    tokenHash: text("token_hash").notNull().unique("sessions_token_hash_key"),
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").notNull().default("api"),
    ip: text("ip"),
    userAgent: text("user_agent"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }).notNull().defaultNow(),
    /** OAuth2 access tokens: the granted scopes, space-separated (api.md, "OAuth2"); null for sign-in sessions, which may do anything their user may. */
    scope: text("scope"),
    /** OAuth2 access tokens: when the token stops (null: an `offline` token, which does not expire). Sign-in sessions follow session_limit and session_idle instead. */
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    /**
     * App passwords (api.md, "Account security"): the app password itself is a row of kind
     * `app_password` with its `name` and no parent (never a bearer token: authenticate.ts); a
     * session POST /auth opens with it is a row of the same kind whose parent is the app password,
     * so revoking the app password ends them at once.
     */
    name: text("name"),
    parentId: bigint("parent_id", { mode: "number" }).references((): AnyPgColumn => sessions.id, { onDelete: "cascade" }),
  },
  // The dashboard's active users of today and of 30 days read a range of last uses (issue 32).
  (t) => [index("sessions_user_id_idx").on(t.userId), index("sessions_last_used_at_idx").on(t.lastUsedAt), index("sessions_parent_id_idx").on(t.parentId)],
);

export type Session = typeof sessions.$inferSelect;

// Failed sign-ins, per (account, address) pair and per address, for throttling.
export const loginThrottles = pgTable("login_throttles", {
  key: text("key").primaryKey(),
  failures: integer("failures").notNull().default(0),
  windowStart: timestamp("window_start", { withTimezone: true }).notNull().defaultNow(),
  blockedUntil: timestamp("blocked_until", { withTimezone: true }),
});

// One-use password reset links.
export const passwordResets = pgTable("password_resets", {
  tokenHash: text("token_hash").primaryKey(),
  userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  usedAt: timestamp("used_at", { withTimezone: true }),
});
