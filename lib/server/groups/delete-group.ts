import "server-only";
import { eq } from "drizzle-orm";
import { groups, rights } from "@/db/schema";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { forbidden } from "../errors";
import { getGroupOrThrow } from "./get-group";

/**
 * DELETE /group/(groupId) (administrators): memberships and manager rows go with the group, and
 * so do its folder rights (rights name users or groups by id, without a foreign key).
 */
export async function deleteGroup(ctx: AuthedCtx, groupId: number): Promise<void> {
  const actor = ctx.actor.user;
  if (actor.role !== 3) throw forbidden("Only administrators delete groups");
  await ctx.db.transaction(async (tx) => {
    const group = await getGroupOrThrow(tx, groupId, { lock: true });
    if (group.ldap) throw forbidden("This group comes from an external directory and is read-only");
    await tx.delete(rights).where(eq(rights.targetId, group.id));
    await tx.delete(groups).where(eq(groups.id, group.id));
    await writeLog(tx, { actor, request: ctx.request }, { type: "ADMLLOG_DELETE", message: `Deleted group ${group.login}`, objectType: "group", objectId: group.id, object: group.login });
  });
}
