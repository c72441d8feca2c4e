import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { groupManagers, groups, users, type User } from "@/db/schema";
import { displayName } from "../audit/write-log";
import { managesUser } from "../users/managed-users";
import type { AuthedCtx } from "../context";
import { forbidden, notFound } from "../errors";

/** The principal whose connection options are read or changed (users and groups share one id sequence). */
export type OptionsTarget = { id: number; name: string; isGroup: boolean };

/**
 * Who may read or change the options of a principal. Administrators: anyone (an unknown id is a
 * 404). Managers: the users of the groups they manage with the users scope, read and write, except
 * administrators and managers (as for accounts: getAdministeredUserOrThrow); the groups they manage,
 * read only, because a group's options reach every member, administrators included. Everyone reads
 * their own options. Any other id is a 403, existing or not, so the answer leaks nothing.
 */
export async function getOptionsTargetOrThrow(ctx: AuthedCtx, targetId: number, access: "read" | "write"): Promise<OptionsTarget> {
  const actor = ctx.actor.user;
  if (actor.role === 3) {
    const target = await findTarget(ctx.db, targetId);
    if (!target) throw notFound("User or group");
    return describe(target);
  }
  if (targetId === actor.id && access === "read") return describe({ user: actor });
  if (actor.role !== 4) throw forbidden("Only administrators and managers see connection options");

  if (await managesUser(ctx.db, actor.id, targetId)) {
    const target = await findTarget(ctx.db, targetId);
    if (!target?.user) throw forbidden("You may not see these connection options");
    if (access === "write" && (target.user.role === 3 || target.user.role === 4)) {
      throw forbidden("Managers may only change the options of external users and users");
    }
    return describe(target);
  }
  const [managed] = await ctx.db
    .select({ login: groups.login })
    .from(groupManagers)
    .innerJoin(groups, eq(groups.id, groupManagers.groupId))
    .where(and(eq(groupManagers.groupId, targetId), eq(groupManagers.userId, actor.id), eq(groupManagers.manageUsers, true)))
    .limit(1);
  if (!managed) throw forbidden("You may not see these connection options");
  if (access === "write") throw forbidden("Only administrators change a group's connection options");
  return { id: targetId, name: managed.login, isGroup: true };
}

type Found = { user: User; group?: undefined } | { user?: undefined; group: { id: number; login: string } };

async function findTarget(db: DbOrTx, id: number): Promise<Found | null> {
  const [user] = await db.select().from(users).where(and(eq(users.id, id), isNull(users.deletedAt))).limit(1);
  if (user) return { user };
  const [group] = await db.select({ id: groups.id, login: groups.login }).from(groups).where(eq(groups.id, id)).limit(1);
  return group ? { group } : null;
}

function describe(found: Found): OptionsTarget {
  return found.user
    ? { id: found.user.id, name: displayName(found.user), isGroup: false }
    : { id: found.group.id, name: found.group.login, isGroup: true };
}
