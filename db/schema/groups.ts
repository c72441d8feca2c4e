import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./users";

export const groups = pgTable(
  "groups",
  {
    id: integer("id").primaryKey().default(sql`nextval('principal_id_seq')`),
    login: text("login").notNull(),
    ldap: boolean("ldap").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("groups_login_idx").on(sql`lower(${t.login})`)],
);

export const groupMembers = pgTable(
  "group_members",
  {
    groupId: integer("group_id").notNull().references(() => groups.id, { onDelete: "cascade" }),
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  },
  // A user's groups are looked up on every request (connection options) and by the rights resolver.
  (t) => [primaryKey({ name: "group_members_pk", columns: [t.groupId, t.userId] }), index("group_members_user_id_idx").on(t.userId)],
);

// Managers (role 4) administer the users of the groups they manage (the contract's manager_of).
// The obsolete group delegates are this row seen through /delegate: its id and three scopes.
export const groupManagers = pgTable(
  "group_managers",
  {
    groupId: integer("group_id").notNull().references(() => groups.id, { onDelete: "cascade" }),
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    id: serial("id").notNull().unique("group_managers_id_key"),
    /** Delegate scopes: manage users, access rights (never beyond their own), alerts. */
    manageUsers: boolean("manage_users").notNull().default(true),
    manageSecurity: boolean("manage_security").notNull().default(true),
    manageAlerts: boolean("manage_alerts").notNull().default(true),
  },
  (t) => [primaryKey({ name: "group_managers_pk", columns: [t.groupId, t.userId] })],
);

export type Group = typeof groups.$inferSelect;
