import { sql } from "drizzle-orm";
import { boolean, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
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
  (t) => [primaryKey({ name: "group_members_pk", columns: [t.groupId, t.userId] })],
);

// Managers (role 4) administer the users of the groups they manage (the contract's manager_of).
export const groupManagers = pgTable(
  "group_managers",
  {
    groupId: integer("group_id").notNull().references(() => groups.id, { onDelete: "cascade" }),
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ name: "group_managers_pk", columns: [t.groupId, t.userId] })],
);

export type Group = typeof groups.$inferSelect;
