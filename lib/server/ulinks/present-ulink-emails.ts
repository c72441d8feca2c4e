import "server-only";
import { asc, inArray } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { ulinkEmails, ulinks } from "@/db/schema";
import type { UlinkEmailResponse } from "@/lib/contracts/ulinks";
import { loadFolderStats } from "../folders/folder-stats";
import { iso } from "../present/envelope";
import { loadLiveDestinations, presentUlinks } from "./present-ulinks";

export type UlinkEmailRow = typeof ulinkEmails.$inferSelect;

/** The contract's Drop links by email: each recipient with their own link and its deposits. */
export async function presentUlinkEmails(db: DbOrTx, rows: UlinkEmailRow[], base: string): Promise<UlinkEmailResponse[]> {
  if (rows.length === 0) return [];
  const links = await db.select().from(ulinks).where(inArray(ulinks.ulinkEmailId, rows.map((r) => r.id))).orderBy(asc(ulinks.id));
  const destinations = await loadLiveDestinations(db, rows);
  const [presented, stats] = await Promise.all([presentUlinks(db, links, base), loadFolderStats(db, [...destinations.keys()])]);
  const recipientsOf = new Map<number, UlinkEmailResponse["recipients"]>();
  links.forEach((link, i) => {
    const list = recipientsOf.get(link.ulinkEmailId!) ?? [];
    list.push({ email: link.recipientEmail ?? "", ulink_id: link.id, url: presented[i].url, nb_deposits: presented[i].nb_deposits ?? 0 });
    recipientsOf.set(link.ulinkEmailId!, list);
  });
  return rows.map((row) => {
    const recipients = recipientsOf.get(row.id) ?? [];
    const live = row.folderId !== null && destinations.has(row.folderId);
    return {
      id: row.id,
      object: row.object,
      content: row.content,
      owner_id: String(row.ownerId),
      ulink_id: recipients[0]?.ulink_id ?? null,
      creation_date: row.createdAt.toISOString(),
      folder: live ? destinations.get(row.folderId!)! : null,
      folder_id: live ? row.folderId : null,
      folder_size: live ? (stats.get(row.folderId!)?.size ?? 0) : 0,
      alert: row.alert !== 0,
      expiration_date: iso(row.expirationDate),
      recipients,
    };
  });
}

export const presentUlinkEmail = async (db: DbOrTx, row: UlinkEmailRow, base: string) => (await presentUlinkEmails(db, [row], base))[0];
