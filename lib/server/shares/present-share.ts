import type { DbOrTx } from "@/db";
import type { ShareRow } from "@/db/schema";
import type { ShareResponse } from "@/lib/contracts/shares";
import { iso } from "../http/envelope";
import { loadOwnerNames } from "../users/owner-names";
import { isConsumed, isExpired, needsPassword } from "./share-flags";
import { loadRootItems, presentShareItems } from "./share-items";

/** The public address of a share: the page visitors open. */
export const shareUrl = (base: string, key: string) => `${base}/s/${encodeURIComponent(key)}`;

/** The contract's Link share for its owner (or an administrator). */
export async function presentShares(db: DbOrTx, list: ShareRow[], base: string): Promise<ShareResponse[]> {
  const names = await loadOwnerNames(db, list.map((s) => s.ownerId));
  return Promise.all(
    list.map(async (share) => ({
      id: share.id,
      key: share.key,
      url: shareUrl(base, share.key),
      roots: await presentShareItems(db, share, await loadRootItems(db, share), true),
      flags: share.flags,
      expiration_date: iso(share.expirationDate),
      creation_date: iso(share.createdAt)!,
      name: share.name,
      owner: names.get(share.ownerId) ?? "",
      owner_id: share.ownerId,
      password_protected: needsPassword(share),
      phone: share.phone,
      is_valid: !isExpired(share) && !isConsumed(share),
      consumed_date: iso(share.consumedAt),
    })),
  );
}

export const presentShare = async (db: DbOrTx, share: ShareRow, base: string) => (await presentShares(db, [share], base))[0];
