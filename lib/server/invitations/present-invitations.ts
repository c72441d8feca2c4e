import "server-only";
import type { DbOrTx } from "@/db";
import type { InvitationRow } from "@/db/schema";
import type { InvitationResponse } from "@/lib/contracts/invitations";
import { iso } from "../present/envelope";
import { loadOwnerNames } from "../users/owner-names";

/** The contract's Invitations, with the inviters' names in one query. */
export async function presentInvitations(db: DbOrTx, found: InvitationRow[]): Promise<InvitationResponse[]> {
  const names = await loadOwnerNames(db, found.map((i) => i.sourceId));
  return found.map((i) => ({
    id: String(i.id),
    key: i.key,
    email: i.email,
    source: String(i.sourceId),
    source_name: names.get(i.sourceId) ?? "",
    target: i.targetId,
    expiration: iso(i.expiration),
    folder: i.folderId,
    rights: i.rights,
    used_at: iso(i.usedAt),
  }));
}

export const presentInvitation = async (db: DbOrTx, row: InvitationRow) => (await presentInvitations(db, [row]))[0];
