import "server-only";
import { and, eq, inArray, isNull, notInArray } from "drizzle-orm";
import type { DbOrTx, Tx } from "@/db";
import { groupManagers, groupMembers, users } from "@/db/schema";
import { AppError, forbidden } from "../errors";
import { usersManagedBy } from "../users/managed-users";

/** Every id names a live user, or a 404 naming the field. */
export async function assertLiveUsers(db: DbOrTx, ids: number[], field: "members" | "managers") {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const found = await db.select({ id: users.id, role: users.role, login: users.login }).from(users).where(and(inArray(users.id, unique), isNull(users.deletedAt)));
  if (found.length !== unique.length) throw new AppError("not_found", `A user in \`${field}\` does not exist`);
  return found;
}

/** Only users with the manager role (4) manage groups; administrators need no such row. */
export async function assertManagers(db: DbOrTx, ids: number[]) {
  const found = await assertLiveUsers(db, ids, "managers");
  const details = found.filter((u) => u.role !== 4).map((u) => ({ path: "managers", message: `${u.login} (${u.id}) does not have the manager role` }));
  if (details.length) throw new AppError("invalid_request", "Group managers must have the manager role (4)", details);
}

/**
 * A manager may put into a group they manage only users they already administer (through a group
 * managed with the users scope: users/managed-users.ts), or managing a group would be a way to take
 * over any account, and a delegation without the users scope a way to get one with it.
 */
export async function assertManagerMayAdd(tx: Tx, managerId: number, userIds: number[]) {
  const managed = await usersManagedBy(tx, managerId, userIds);
  if (userIds.some((id) => !managed.has(id))) throw forbidden("You may only add users you administer (members of a group you manage with the users scope)");
}

/** The live members to add and remove so that the group holds exactly `ids`. */
export async function planMemberChange(tx: Tx, groupId: number, ids: number[]) {
  const current = await tx
    .select({ id: groupMembers.userId })
    .from(groupMembers)
    .innerJoin(users, eq(users.id, groupMembers.userId))
    .where(and(eq(groupMembers.groupId, groupId), isNull(users.deletedAt)));
  const wanted = new Set(ids);
  const had = new Set(current.map((r) => r.id));
  return { added: [...wanted].filter((id) => !had.has(id)), removed: [...had].filter((id) => !wanted.has(id)) };
}

export async function applyMemberChange(tx: Tx, groupId: number, change: { added: number[]; removed: number[] }) {
  if (change.removed.length) await tx.delete(groupMembers).where(and(eq(groupMembers.groupId, groupId), inArray(groupMembers.userId, change.removed)));
  if (change.added.length) await tx.insert(groupMembers).values(change.added.map((userId) => ({ groupId, userId }))).onConflictDoNothing();
}

/** Deleted users keep their manager rows for the record, like their memberships. */
export async function replaceManagers(tx: Tx, groupId: number, ids: number[]) {
  const unique = [...new Set(ids)];
  const live = tx.select({ id: users.id }).from(users).where(isNull(users.deletedAt));
  await tx
    .delete(groupManagers)
    .where(and(eq(groupManagers.groupId, groupId), inArray(groupManagers.userId, live), unique.length ? notInArray(groupManagers.userId, unique) : undefined));
  if (unique.length) await tx.insert(groupManagers).values(unique.map((userId) => ({ groupId, userId }))).onConflictDoNothing();
}
