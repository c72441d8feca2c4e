import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { folders, invitations, type Folder, type InvitationRow } from "@/db/schema";
import { getPlatformConfig } from "../config/platform-config";
import { AppError, forbidden, notFound } from "../errors";

/**
 * The invitation a key names, still usable: unknown keys, and invitations to a folder now in
 * the trash, are a 404; used and expired ones a 410 with their own code, so the page can say
 * which. `lock` holds the row until the transaction ends: of two completions, the second waits,
 * then finds it used.
 */
export async function getUsableInvitationOrThrow(db: DbOrTx, key: string, options: { lock?: boolean } = {}): Promise<{ invitation: InvitationRow; folder: Folder }> {
  // The feature off stops new accounts as well as new invitations.
  if (!(await getPlatformConfig(db)).features.invitations) throw forbidden("Invitations are disabled on this platform");
  const query = db.select().from(invitations).where(eq(invitations.key, key)).limit(1);
  const [invitation] = options.lock ? await query.for("update") : await query;
  if (!invitation) throw notFound("Invitation");
  if (invitation.usedAt) throw new AppError("invitation_used", "This invitation has already been used: sign in with the account created from it");
  if (invitation.expiration && invitation.expiration.getTime() <= Date.now()) throw new AppError("invitation_expired", "This invitation has expired: ask the person who sent it for a new one");
  const [folder] = await db.select().from(folders).where(and(eq(folders.id, invitation.folderId), isNull(folders.deletedAt))).limit(1);
  if (!folder) throw notFound("Invitation");
  return { invitation, folder };
}
