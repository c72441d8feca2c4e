import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { groupManagers, groupMembers } from "@/db/schema";

/**
 * The one rule for a manager's power over accounts: a manager reaches a user only through a group
 * they manage with the delegate's `users` scope on. A delegation with the scope off lets them see
 * the group, never administer its users, and membership of such a group counts for nothing here.
 * Every path that gives a manager power over a user asks this module: acting as them (AsId),
 * reading and changing them (PUT /user, passwords included), their options, pictures, quotas and
 * alerts, and putting them into another group, which would otherwise turn a restricted delegation
 * into a full one (issue 25, finding 4). The role rules (never administrators nor other managers)
 * are the callers', as they differ between reading and changing.
 */
export const groupsManagedWithUsersScope = (db: DbOrTx, managerId: number) =>
  db.select({ id: groupManagers.groupId }).from(groupManagers).where(and(eq(groupManagers.userId, managerId), eq(groupManagers.manageUsers, true)));

/** The groups whose users `managerId` administers. */
export async function groupIdsManagedBy(db: DbOrTx, managerId: number): Promise<number[]> {
  return (await groupsManagedWithUsersScope(db, managerId)).map((r) => r.id);
}

/** Which of `userIds` the manager administers. */
export async function usersManagedBy(db: DbOrTx, managerId: number, userIds: number[]): Promise<Set<number>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .selectDistinct({ id: groupMembers.userId })
    .from(groupMembers)
    .where(and(inArray(groupMembers.userId, [...new Set(userIds)]), inArray(groupMembers.groupId, groupsManagedWithUsersScope(db, managerId))));
  return new Set(rows.map((r) => r.id));
}

/** True when `managerId` administers `userId`. */
export async function managesUser(db: DbOrTx, managerId: number, userId: number): Promise<boolean> {
  return (await usersManagedBy(db, managerId, [userId])).has(userId);
}
