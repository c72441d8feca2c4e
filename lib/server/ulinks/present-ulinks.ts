import "server-only";
import { and, count, inArray, isNull } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { folders, ulinkDeposits, type UlinkRow } from "@/db/schema";
import { ULINK_FLAG, type PublicUlinkResponse, type UlinkResponse } from "@/lib/contracts/ulinks";
import { iso } from "../present/envelope";
import { loadFolderStats } from "../folders/folder-stats";
import { loadOwnerNames } from "../users/owner-names";

export const ulinkUrl = (base: string, key: string) => `${base}/d/${key}`;

/** Not expired and its destination still live (the contract's `is_valid`). */
export const isUlinkExpired = (link: Pick<UlinkRow, "expirationDate">, now = new Date()) => Boolean(link.expirationDate && link.expirationDate <= now);

/** The live destination folders of some links, by id; a trashed or deleted folder is absent. */
export async function loadLiveDestinations(db: DbOrTx, links: Pick<UlinkRow, "folderId">[]) {
  const ids = [...new Set(links.map((l) => l.folderId).filter((id): id is number => id !== null))];
  if (ids.length === 0) return new Map<number, string>();
  const found = await db.select({ id: folders.id, name: folders.name }).from(folders).where(and(inArray(folders.id, ids), isNull(folders.deletedAt)));
  return new Map(found.map((f) => [f.id, f.name]));
}

/**
 * The contract's Drop links for their owner (or an administrator), in a bounded number of
 * queries: destination names and sizes, owners' names, deposit counts.
 */
export async function presentUlinks(db: DbOrTx, links: UlinkRow[], base: string): Promise<UlinkResponse[]> {
  if (links.length === 0) return [];
  const destinations = await loadLiveDestinations(db, links);
  const [names, stats, deposits] = await Promise.all([
    loadOwnerNames(db, links.map((l) => l.ownerId)),
    loadFolderStats(db, [...destinations.keys()]),
    db
      .select({ ulinkId: ulinkDeposits.ulinkId, n: count() })
      .from(ulinkDeposits)
      .where(inArray(ulinkDeposits.ulinkId, links.map((l) => l.id)))
      .groupBy(ulinkDeposits.ulinkId),
  ]);
  const depositCounts = new Map(deposits.map((d) => [d.ulinkId, Number(d.n)]));
  const now = new Date();
  return links.map((link) => {
    const live = link.folderId !== null && destinations.has(link.folderId);
    return {
      id: link.id,
      key: link.key,
      folder: live ? destinations.get(link.folderId!)! : null,
      folder_id: live ? link.folderId : null,
      folder_size: live ? (stats.get(link.folderId!)?.size ?? 0) : 0,
      is_valid: live && !isUlinkExpired(link, now),
      expiration_date: iso(link.expirationDate),
      creation_date: link.createdAt.toISOString(),
      owner: names.get(link.ownerId) ?? "",
      owner_id: String(link.ownerId),
      url: ulinkUrl(base, link.key),
      flags: link.flags,
      name: link.name,
      alert: (link.flags & ULINK_FLAG.receipt) !== 0,
      password_protected: link.passwordHash !== null,
      phone: link.phone,
      nb_deposits: depositCounts.get(link.id) ?? 0,
      depositor: link.depositor,
    };
  });
}

export const presentUlink = async (db: DbOrTx, link: UlinkRow, base: string) => (await presentUlinks(db, [link], base))[0];

/** What a visitor sees: no folder, no size, no content; only whether they may deposit and how. */
export async function presentPublicUlink(db: DbOrTx, link: UlinkRow, usable: boolean): Promise<PublicUlinkResponse> {
  const names = await loadOwnerNames(db, [link.ownerId]);
  return {
    key: link.key,
    name: link.name,
    owner: names.get(link.ownerId) ?? "",
    expiration_date: iso(link.expirationDate),
    is_valid: usable,
    password_required: link.passwordHash !== null,
    code_required: link.phone !== null,
    depositor: link.depositor,
  };
}
