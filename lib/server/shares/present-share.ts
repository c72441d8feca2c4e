import "server-only";
import type { DbOrTx } from "@/db";
import type { ShareRow } from "@/db/schema";
import type { ShareResponse } from "@/lib/contracts/shares";
import { shareGateJson } from "../engagement/gate/share-gate";
import { iso } from "../present/envelope";
import { loadOwnerNames } from "../users/owner-names";
import { isConsumed, isExpired, needsPassword } from "./share-flags";
import { loadRootItemsOfShares, loadShareItemDetails, shareItemsJson } from "./share-items";

/** The public address of a share: the page visitors open. */
export const shareUrl = (base: string, key: string) => `${base}/s/${encodeURIComponent(key)}`;

/** The contract's Link shares for their owner (or an administrator), in a bounded number of queries. */
export async function presentShares(db: DbOrTx, list: ShareRow[], base: string): Promise<ShareResponse[]> {
  if (list.length === 0) return [];
  const [names, roots] = await Promise.all([loadOwnerNames(db, list.map((s) => s.ownerId)), loadRootItemsOfShares(db, list)]);
  const details = await loadShareItemDetails(db, [...roots.values()]);
  return list.map((share) => ({
    id: share.id,
    key: share.key,
    url: shareUrl(base, share.key),
    roots: shareItemsJson(share, roots.get(share.id)!, details, true),
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
    gate: shareGateJson(share.gate),
  }));
}

export const presentShare = async (db: DbOrTx, share: ShareRow, base: string) => (await presentShares(db, [share], base))[0];
