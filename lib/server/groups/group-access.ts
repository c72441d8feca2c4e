import "server-only";
import { and, eq, inArray, or, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { groupManagers, groupMembers, groups, type User } from "@/db/schema";

/**
 * How a non-administrator stands towards a group. Only a user with the manager role who holds a
 * manager row manages it (a demoted manager keeps the row but loses the power); `managesUsers`
 * when that delegation also has the users scope, which changing the members needs.
 */
export async function getGroupStanding(db: DbOrTx, actor: User, groupId: number): Promise<{ member: boolean; manages: boolean; managesUsers: boolean }> {
  const [member, manager] = await Promise.all([
    db.select({ id: groupMembers.groupId }).from(groupMembers).where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.userId, actor.id))).limit(1),
    actor.role === 4
      ? db
          .select({ users: groupManagers.manageUsers })
          .from(groupManagers)
          .where(and(eq(groupManagers.groupId, groupId), eq(groupManagers.userId, actor.id)))
          .limit(1)
      : Promise.resolve([]),
  ]);
  return { member: member.length > 0, manages: manager.length > 0, managesUsers: manager[0]?.users === true };
}

/** The groups a non-administrator sees: those they belong to and, for managers, those they manage. */
export function restrictToVisibleGroups(db: DbOrTx, actor: User): SQL {
  const belongs = inArray(groups.id, db.select({ id: groupMembers.groupId }).from(groupMembers).where(eq(groupMembers.userId, actor.id)));
  if (actor.role !== 4) return belongs;
  return or(belongs, inArray(groups.id, db.select({ id: groupManagers.groupId }).from(groupManagers).where(eq(groupManagers.userId, actor.id))))!;
}
