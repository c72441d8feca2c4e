import "server-only";
import { and, count, countDistinct, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { shareAccesses, shares } from "@/db/schema";
import { FILE_EVENT } from "../events/record-event";
import { iso } from "../present/envelope";
import { loadOwnerNames } from "../users/owner-names";
import type { EventJson } from "./load-events";

/**
 * The contract's data of a type 2 event (link share created): the Link share, plus `downloads`
 * (this file's downloads through it) and `users` (distinct visitors who downloaded it). The key
 * and address are left out: whoever may read the file would otherwise hold the link. A share
 * deleted since keeps only its id, with zero counts.
 */
export async function describeLinkShares(db: DbOrTx, fileId: number, events: EventJson[]): Promise<void> {
  const linkEvents = events.filter((e) => e.type === FILE_EVENT.linkShare);
  const ids = [...new Set(linkEvents.map((e) => shareIdOf(e.data)).filter((id): id is number => id !== null))];
  if (ids.length === 0) return;
  const [found, counts] = await Promise.all([
    db.select().from(shares).where(inArray(shares.id, ids)),
    db
      .select({ shareId: shareAccesses.shareId, downloads: count(), users: countDistinct(shareAccesses.visitor) })
      .from(shareAccesses)
      .where(and(inArray(shareAccesses.shareId, ids), eq(shareAccesses.fileId, fileId), eq(shareAccesses.kind, "download")))
      .groupBy(shareAccesses.shareId),
  ]);
  const names = await loadOwnerNames(db, found.map((s) => s.ownerId));
  const byId = new Map(found.map((s) => [s.id, s]));
  const countsById = new Map(counts.map((c) => [c.shareId, c]));
  for (const event of linkEvents) {
    const id = shareIdOf(event.data);
    if (id === null) continue;
    const share = byId.get(id);
    const tally = countsById.get(id);
    const totals = { downloads: Number(tally?.downloads ?? 0), users: Number(tally?.users ?? 0) };
    event.data = share
      ? {
          share_id: id,
          id,
          name: share.name,
          flags: share.flags,
          expiration_date: iso(share.expirationDate),
          creation_date: iso(share.createdAt),
          owner: names.get(share.ownerId) ?? "",
          owner_id: String(share.ownerId),
          ...totals,
        }
      : { share_id: id, ...totals };
  }
}

function shareIdOf(data: unknown): number | null {
  const id = (data as { share_id?: unknown } | null)?.share_id;
  return typeof id === "number" ? id : null;
}
