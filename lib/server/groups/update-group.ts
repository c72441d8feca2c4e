import "server-only";
import { eq } from "drizzle-orm";
import type { z } from "zod";
import { groups } from "@/db/schema";
import type { updateGroupBody } from "@/lib/contracts/groups";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { forbidden } from "../errors";
import { assertGroupLoginFree } from "./create-group";
import { getGroupStanding } from "./group-access";
import { applyMemberChange, assertLiveUsers, assertManagerMayAdd, assertManagers, planMemberChange, replaceManagers } from "./group-members";
import { getGroupOrThrow } from "./get-group";
import { presentGroup } from "./serialize-group";

type Input = z.output<typeof updateGroupBody>;

/**
 * PUT /group/(groupId). Administrators rename a group and replace its members and managers;
 * a group's managers replace its members only. Directory (LDAP) groups are read-only.
 */
export async function updateGroup(ctx: AuthedCtx, groupId: number, input: Input, options: { full: boolean }) {
  const actor = ctx.actor.user;
  const isAdmin = actor.role === 3;
  if (!isAdmin) {
    const { manages, managesUsers } = await getGroupStanding(ctx.db, actor, groupId);
    if (!manages) throw forbidden("Only administrators and the group's managers change a group");
    if (input.login !== undefined || input.managers !== undefined) throw forbidden("Only administrators rename a group or change its managers");
    if (input.members !== undefined && !managesUsers) throw forbidden("Your delegation on this group does not include its users");
  }
  const group = await ctx.db.transaction(async (tx) => {
    const current = await getGroupOrThrow(tx, groupId, { lock: true });
    if (current.ldap) throw forbidden("This group comes from an external directory and is read-only");
    const changed: string[] = [];
    let row = current;

    if (input.login !== undefined && input.login !== current.login) {
      await assertGroupLoginFree(tx, input.login, current.id);
      [row] = await tx.update(groups).set({ login: input.login }).where(eq(groups.id, current.id)).returning();
      changed.push("login");
    }
    if (input.members) {
      await assertLiveUsers(tx, input.members, "members");
      const change = await planMemberChange(tx, current.id, input.members);
      if (!isAdmin) await assertManagerMayAdd(tx, actor.id, change.added);
      await applyMemberChange(tx, current.id, change);
      if (change.added.length + change.removed.length) changed.push("members");
    }
    if (input.managers) {
      await assertManagers(tx, input.managers);
      await replaceManagers(tx, current.id, input.managers);
      changed.push("managers");
    }
    if (changed.length) {
      await writeLog(tx, { actor, request: ctx.request }, { type: "ADMLLOG_UPDATE", message: `Updated group ${row.login}: ${changed.join(", ")}`, objectType: "group", objectId: row.id, object: row.login });
    }
    return row;
  });
  return presentGroup(ctx.db, group, options);
}
