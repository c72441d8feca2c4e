import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

export const ROLE = { external: 1, user: 2, admin: 3, manager: 4 } as const;
export type Role = (typeof ROLE)[keyof typeof ROLE];

export const users = pgTable(
  "users",
  {
    id: integer("id").primaryKey().default(sql`nextval('principal_id_seq')`),
    login: text("login").notNull(),
    passwordHash: text("password_hash"),
    firstname: text("firstname").notNull().default(""),
    lastname: text("lastname").notNull().default(""),
    email: text("email").notNull().default(""),
    organization: text("organization").notNull().default(""),
    phone: text("phone").notNull().default(""),
    active: boolean("active").notNull().default(true),
    language: text("language").notNull().default("auto"),
    quota: bigint("quota", { mode: "number" }),
    expire: timestamp("expire", { withTimezone: true }),
    role: smallint("role").notNull().default(1),
    canEditOptions: boolean("can_edit_options").notNull().default(true),
    ldap: boolean("ldap").notNull().default(false),
    /** An administrator demands a second factor of this account (see also the platform's mfa_required). */
    mfaRequired: boolean("mfa_required").notNull().default(false),
    privateRootId: integer("private_root_id"),
    pictureBlobId: text("picture_blob_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastLogin: timestamp("last_login", { withTimezone: true }),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("users_login_live_idx").on(sql`lower(${t.login})`).where(sql`${t.deletedAt} IS NULL`),
    index("users_email_idx").on(sql`lower(${t.email})`),
    // The dashboard's active users: sign-ins of a day or of 30 days, by range (issue 32).
    index("users_last_login_idx").on(t.lastLogin),
  ],
);

export type User = typeof users.$inferSelect;
