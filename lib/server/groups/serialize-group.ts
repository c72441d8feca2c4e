import "server-only";
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { groupManagers, groupMembers, groups, users, type Group, type User } from "@/db/schema";
import type { GroupResponse } from "@/lib/contracts/groups";
import type { UserResponse } from "@/lib/contracts/users";
import { loadUserRelations, serializeUser } from "../users/serialize-user";

/** Live members only: deleted users keep their memberships for the record, but are not counted. */
export const liveMemberCount = (db: DbOrTx) =>
  sql<number>`(${db
    .select({ n: sql`count(*)::int` })
    .from(groupMembers)
    .innerJoin(users, eq(users.id, groupMembers.userId))
    .where(and(eq(groupMembers.groupId, groups.id), isNull(users.deletedAt)))})`;

export function serializeGroup(group: Group, nbMembers: number, people?: { members: UserResponse[]; managers: UserResponse[] }): GroupResponse {
  return {
    id: String(group.id),
    login: group.login,
    ldap: group.ldap,
    nb_members: nbMembers,
    ...(people ? { members: people.members, managers: people.managers } : {}),
  };
}

/** One group, with its live members and managers as Users when `full`. */
export async function presentGroup(db: DbOrTx, group: Group, options: { full: boolean }): Promise<GroupResponse> {
  if (!options.full) {
    const [{ n }] = await db.select({ n: liveMemberCount(db) }).from(groups).where(eq(groups.id, group.id));
    return serializeGroup(group, n);
  }
  const [members, managers] = await Promise.all([
    db.select({ user: users }).from(groupMembers).innerJoin(users, eq(users.id, groupMembers.userId)).where(and(eq(groupMembers.groupId, group.id), isNull(users.deletedAt))).orderBy(asc(sql`lower(${users.login})`)),
    db.select({ user: users }).from(groupManagers).innerJoin(users, eq(users.id, groupManagers.userId)).where(and(eq(groupManagers.groupId, group.id), isNull(users.deletedAt))).orderBy(asc(sql`lower(${users.login})`)),
  ]);
  const people = [...members, ...managers].map((r) => r.user);
  const relations = await loadUserRelations(db, [...new Set(people.map((u) => u.id))]);
  const present = (list: { user: User }[]) => list.map(({ user }) => serializeUser(user, relations.get(user.id)!));
  return serializeGroup(group, members.length, { members: present(members), managers: present(managers) });
}
