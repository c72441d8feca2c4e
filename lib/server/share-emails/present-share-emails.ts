import "server-only";
import { asc, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { shareAccesses, shareEmailRecipients, shares } from "@/db/schema";
import type { ShareEmailResponse } from "@/lib/contracts/share-emails";
import { shareUrl } from "../shares/present-share";
import type { ShareEmailRow } from "./share-email-access";

/** A recipient's personal address: the share's, with their key so their visits are counted. */
export const recipientUrl = (base: string, shareKey: string, recipientKey: string) => `${shareUrl(base, shareKey)}?r=${encodeURIComponent(recipientKey)}`;

/** The contract's Email shares with per-recipient statistics, in three queries whatever the count. */
export async function presentShareEmails(db: DbOrTx, rows: ShareEmailRow[], base: string): Promise<ShareEmailResponse[]> {
  if (rows.length === 0) return [];
  const [recipients, keys] = await Promise.all([
    db.select().from(shareEmailRecipients).where(inArray(shareEmailRecipients.shareEmailId, rows.map((r) => r.id))).orderBy(asc(shareEmailRecipients.id)),
    db.select({ id: shares.id, key: shares.key }).from(shares).where(inArray(shares.id, rows.map((r) => r.shareId))),
  ]);
  const shareKeys = new Map(keys.map((s) => [s.id, s.key]));
  const stats = new Map<number, { visits: number; previews: number; downloads: number; last_visit: string | null }>();
  if (recipients.length > 0) {
    const counted = await db
      .select({
        recipientId: shareAccesses.recipientId,
        visits: sql<number>`count(*) filter (where ${shareAccesses.kind} = 'visit')`.mapWith(Number),
        previews: sql<number>`count(*) filter (where ${shareAccesses.kind} = 'preview')`.mapWith(Number),
        downloads: sql<number>`count(*) filter (where ${shareAccesses.kind} in ('download', 'zip'))`.mapWith(Number),
        last: sql<Date | string | null>`max(${shareAccesses.date})`,
      })
      .from(shareAccesses)
      .where(inArray(shareAccesses.recipientId, recipients.map((r) => r.id)))
      .groupBy(shareAccesses.recipientId);
    for (const c of counted) {
      stats.set(c.recipientId!, { visits: c.visits, previews: c.previews, downloads: c.downloads, last_visit: c.last ? new Date(c.last).toISOString() : null });
    }
  }
  return rows.map((row) => {
    const shareKey = shareKeys.get(row.shareId) ?? "";
    const list = recipients
      .filter((r) => r.shareEmailId === row.id)
      .map((r) => ({ email: r.email, url: recipientUrl(base, shareKey, r.key), ...(stats.get(r.id) ?? { visits: 0, previews: 0, downloads: 0, last_visit: null }) }));
    return {
      id: row.id,
      object: row.object,
      content: row.content,
      owner_id: String(row.ownerId),
      share_id: row.shareId,
      creation_date: row.createdAt.toISOString(),
      recipients: list,
      stats: { nb_download: list.reduce((n, r) => n + r.downloads, 0), nb_preview: list.reduce((n, r) => n + r.previews, 0) },
    };
  });
}

export const presentShareEmail = async (db: DbOrTx, row: ShareEmailRow, base: string) => (await presentShareEmails(db, [row], base))[0];
