import "server-only";
import type { InvitationPreview } from "@/lib/contracts/invitations";
import type { Ctx } from "../context";
import { iso } from "../present/envelope";
import { loadOwnerNames } from "../users/owner-names";
import { getUsableInvitationOrThrow } from "./invitation-by-key";

/** GET /invite/key/(key) (no token): what the invited person needs to decide, nothing more. */
export async function readInvitationKey(ctx: Ctx, key: string): Promise<InvitationPreview> {
  const { invitation, folder } = await getUsableInvitationOrThrow(ctx.db, key);
  const names = await loadOwnerNames(ctx.db, [invitation.sourceId]);
  return { email: invitation.email, folder_name: folder.name, source_name: names.get(invitation.sourceId) ?? "", expiration: iso(invitation.expiration) };
}
