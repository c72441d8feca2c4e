import "server-only";
import { eq } from "drizzle-orm";
import { invitations } from "@/db/schema";
import type { InvitationResponse, UpdateInvitationBody } from "@/lib/contracts/invitations";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { assertMayGrant, getManagedInvitationOrThrow } from "./invitation-access";
import { presentInvitation } from "./present-invitations";

/**
 * PUT /invite/(id): new rights mask and/or expiration, by its inviter, a holder of the share
 * right on the folder, or an administrator; the new mask stays within the caller's own rights.
 * A used invitation is a 409: the account's right is changed through /right instead.
 */
export async function updateInvitation(ctx: AuthedCtx, invitationId: number, input: UpdateInvitationBody): Promise<InvitationResponse> {
  const user = ctx.actor.user;
  if (input.expiration && input.expiration.getTime() <= Date.now()) {
    throw new AppError("invalid_request", "expiration must be in the future", [{ path: "expiration", message: "Must be in the future" }]);
  }
  return ctx.db.transaction(async (tx) => {
    const { invitation, folder, rights } = await getManagedInvitationOrThrow(tx, user, invitationId);
    if (invitation.usedAt) throw new AppError("conflict", "This invitation has been used: change the right of the account it created instead");
    if (input.rights !== undefined) assertMayGrant(rights, input.rights);
    const [updated] = await tx
      .update(invitations)
      .set({ rights: input.rights ?? invitation.rights, expiration: input.expiration === undefined ? invitation.expiration : input.expiration })
      .where(eq(invitations.id, invitation.id))
      .returning();
    await writeLog(tx, { actor: user, request: ctx.request }, {
      type: "ADMLLOG_UPDATE",
      message: `Changed the invitation of ${invitation.email} to folder ${folder.name} (rights ${updated.rights}, expiration ${updated.expiration?.toISOString() ?? "none"})`,
      objectType: "invitation",
      objectId: invitation.id,
      object: invitation.email,
    });
    return presentInvitation(tx, updated);
  });
}
