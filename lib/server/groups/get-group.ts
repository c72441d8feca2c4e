import "server-only";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { groups, type Group } from "@/db/schema";
import type { AuthedCtx } from "../context";
import { forbidden, notFound } from "../errors";
import { getGroupStanding } from "./group-access";
import { presentGroup } from "./serialize-group";

export async function getGroupOrThrow(db: DbOrTx, groupId: number, options: { lock?: boolean } = {}): Promise<Group> {
  const query = db.select().from(groups).where(eq(groups.id, groupId)).limit(1);
  const [group] = options.lock ? await query.for("update") : await query;
  if (!group) throw notFound("Group");
  return group;
}

/**
 * GET /group/(groupId). Administrators read any group; others read the groups they belong to or
 * manage, and only managers see the members (`full`). Any other id is a 403, existing or not.
 */
export async function getGroup(ctx: AuthedCtx, groupId: number, options: { full: boolean }) {
  const actor = ctx.actor.user;
  if (actor.role !== 3) {
    const { member, manages } = await getGroupStanding(ctx.db, actor, groupId);
    if (!member && !manages) throw forbidden("You may not read this group");
    if (options.full && !manages) throw forbidden("Only administrators and the group's managers see its members");
  }
  return presentGroup(ctx.db, await getGroupOrThrow(ctx.db, groupId), options);
}
