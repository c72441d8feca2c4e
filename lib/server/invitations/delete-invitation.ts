import "server-only";
import { eq } from "drizzle-orm";
import { invitations } from "@/db/schema";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { getManagedInvitationOrThrow } from "./invitation-access";

/**
 * DELETE /invite/(id): by its inviter, a holder of the share right on the folder, or an
 * administrator. A pending key stops working; an account already created from it keeps its right.
 */
export async function deleteInvitation(ctx: AuthedCtx, invitationId: number): Promise<void> {
  const user = ctx.actor.user;
  await ctx.db.transaction(async (tx) => {
    const { invitation, folder } = await getManagedInvitationOrThrow(tx, user, invitationId);
    await tx.delete(invitations).where(eq(invitations.id, invitation.id));
    await writeLog(tx, { actor: user, request: ctx.request }, {
      type: "ADMLLOG_DELETE",
      message: `Deleted the invitation of ${invitation.email} to folder ${folder.name}`,
      objectType: "invitation",
      objectId: invitation.id,
      object: invitation.email,
    });
  });
}
