import "server-only";
import { eq } from "drizzle-orm";
import { groupManagers } from "@/db/schema";
import { displayName, writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { getDelegateOrThrow } from "./present-delegate";

/**
 * DELETE /delegate/(id) (administrators): the user no longer manages the group. Their role stays
 * manager (4): roles are changed on the account, and a manager of no group administers nobody.
 */
export async function deleteDelegate(ctx: AuthedCtx, delegateId: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const current = await getDelegateOrThrow(tx, delegateId);
    await tx.delete(groupManagers).where(eq(groupManagers.id, delegateId));
    await writeLog(tx, { actor: ctx.actor.user, request: ctx.request }, {
      type: "ADMLLOG_DELETE",
      message: `Removed delegate ${displayName(current)} from the group`,
      objectType: "group",
      objectId: current.groupId,
    });
  });
}
