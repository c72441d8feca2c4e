import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import type { Tx } from "@/db";
import { folders, passwordResets, users, type User } from "@/db/schema";
import { writeLog } from "../audit/write-log";
import { sendFolderToTrash } from "../trash/send-to-trash";
import type { AuthedCtx } from "../context";
import { forbidden } from "../errors";
import { revokeUserSessions } from "./revoke-user-sessions";
import { assertAnotherActiveAdmin, getAdministeredUserOrThrow, isActiveAdmin } from "./user-access";

/**
 * DELETE /user/(userId): a soft delete. The account can no longer sign in and reads as 404, its
 * sessions and reset links end, and its private space goes to the trash (owned by the deleted
 * user, so an administrator can still restore or purge it). Group memberships stay for the record.
 */
export async function deleteUser(ctx: AuthedCtx, userId: number): Promise<void> {
  const actor = ctx.actor.user;
  if (userId === actor.id || userId === ctx.actor.realUser.id) throw forbidden("You cannot delete your own account");

  await ctx.db.transaction(async (tx) => {
    const { target } = await getAdministeredUserOrThrow(tx, actor, userId);
    if (isActiveAdmin(target)) await assertAnotherActiveAdmin(tx, target.id);
    const now = new Date();
    await tx.update(users).set({ deletedAt: now }).where(eq(users.id, target.id));
    await revokeUserSessions(tx, target.id);
    await tx.delete(passwordResets).where(eq(passwordResets.userId, target.id));
    await trashPrivateSpace(tx, target, actor.id);
    await writeLog(tx, { actor, request: ctx.request }, { type: "ADMLLOG_DELETE", message: `Deleted user ${target.login}`, objectType: "user", objectId: target.id, object: target.login });
  });
}

async function trashPrivateSpace(tx: Tx, owner: User, deletedBy: number) {
  if (!owner.privateRootId) return;
  const [root] = await tx.select().from(folders).where(and(eq(folders.id, owner.privateRootId), isNull(folders.deletedAt)));
  if (root) await sendFolderToTrash(tx, root, { deletedBy });
}
