import "server-only";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { folders, invitations, type Folder, type InvitationRow, type User } from "@/db/schema";
import { AppError, forbidden, notFound } from "../errors";
import { getFolderOrThrow } from "../folders/get-folder";
import { assertHolds } from "../rights/right-access";
import { rightsFromMask, type Rights } from "../rights/rights";

type Caller = Pick<User, "id" | "role">;

/**
 * An invitation its caller may manage: its inviter, whoever holds the share right on its folder,
 * or an administrator. 404 when unknown or when the caller, not its inviter, cannot browse the
 * folder; 403 when they browse it without the share right.
 */
export async function getManagedInvitationOrThrow(db: DbOrTx, user: Caller, invitationId: number): Promise<{ invitation: InvitationRow; folder: Folder; rights: Rights | null }> {
  const [invitation] = await db.select().from(invitations).where(eq(invitations.id, invitationId)).limit(1);
  if (!invitation) throw notFound("Invitation");
  const isInviter = invitation.sourceId === user.id;
  const access = await getFolderOrThrow(db, user, invitation.folderId, "browse").catch((error: unknown) => {
    if (error instanceof AppError && error.code === "not_found") return null;
    throw error;
  });
  if (!access) {
    if (!isInviter) throw notFound("Invitation");
    // The inviter keeps sight of their invitation after losing the folder (a trashed folder too).
    return { invitation, folder: await getFolderRow(db, invitation.folderId), rights: null };
  }
  if (!isInviter && !access.rights.share) throw forbidden("Managing the invitations of this folder needs the share right");
  return { invitation, folder: access.folder, rights: access.rights };
}

async function getFolderRow(db: DbOrTx, folderId: number): Promise<Folder> {
  const [folder] = await db.select().from(folders).where(eq(folders.id, folderId)).limit(1);
  return folder;
}

/** An invitation gives at most what its giver holds on the folder (403 otherwise). */
export function assertMayGrant(held: Rights | null, mask: number) {
  if (!held) throw forbidden("You no longer have access to this folder");
  assertHolds(held, rightsFromMask(mask));
}
