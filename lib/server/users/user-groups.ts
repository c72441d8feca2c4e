import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import type { Tx } from "@/db";
import { groupMembers, groups } from "@/db/schema";
import { AppError, forbidden } from "../errors";

export type GroupChange = { added: number[]; removed: number[] };

/**
 * Turns a user's requested `groups` (the whole new list; empty removes every membership) into the
 * memberships to add and remove, and checks them: the groups exist (404), directory groups keep
 * the directory's members (403), and a manager (`managed` not null) touches only the groups they
 * manage (403).
 */
export async function planGroupChange(tx: Tx, userId: number, requested: number[] | undefined, managed: number[] | null): Promise<GroupChange> {
  if (requested === undefined) return { added: [], removed: [] };
  const current = (await tx.select({ id: groupMembers.groupId }).from(groupMembers).where(eq(groupMembers.userId, userId))).map((r) => r.id);
  const wanted = new Set(requested);
  const change = { added: [...wanted].filter((id) => !current.includes(id)), removed: current.filter((id) => !wanted.has(id)) };
  const touched = [...change.added, ...change.removed];
  if (touched.length === 0) return change;

  if (managed && touched.some((id) => !managed.includes(id))) {
    throw forbidden("You may only add or remove memberships of the groups you manage");
  }
  const found = await tx.select({ id: groups.id, login: groups.login, ldap: groups.ldap }).from(groups).where(inArray(groups.id, touched));
  if (change.added.some((id) => !found.some((g) => g.id === id))) throw new AppError("not_found", "A group in `groups` does not exist");
  const directory = found.find((g) => g.ldap);
  if (directory) throw forbidden(`The members of "${directory.login}" come from the external directory`);
  return change;
}

export async function applyGroupChange(tx: Tx, userId: number, change: GroupChange) {
  if (change.removed.length) {
    await tx.delete(groupMembers).where(and(eq(groupMembers.userId, userId), inArray(groupMembers.groupId, change.removed)));
  }
  if (change.added.length) {
    await tx.insert(groupMembers).values(change.added.map((groupId) => ({ groupId, userId }))).onConflictDoNothing();
  }
}
