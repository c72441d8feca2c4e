import "server-only";
import { createHash } from "node:crypto";
import { and, countDistinct, desc, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { SHARE_FLAG, shareAccesses, type ShareRow } from "@/db/schema";
import type { LegacyOptions, SharelinkResponse } from "@/lib/contracts/sharelinks";
import { iso } from "../present/envelope";
import { loadOwnerNames } from "../users/owner-names";
import { shareUrl } from "../shares/present-share";
import { isConsumed, isExpired, isSingleDownload, needsCode, wantsReceipt } from "../shares/share-flags";
import { loadRootItems, presentShareItems } from "../shares/share-items";

const DOWNLOAD_KINDS = ["download", "zip"];
/** The obsolete `stats.downloads` list stays bounded: the newest ones. */
const STATS_LIMIT = 100;

/**
 * `password_protected`: the contract wants equal values for equal passwords. Hashes are salted,
 * so this is a fingerprint of the stored hash: equal values do mean equal passwords (the same
 * hash), though one password set twice gives two values. Never the password nor its hash.
 */
const passwordFingerprint = (hash: string | null) => (hash ? createHash("sha256").update(hash).digest("hex").slice(0, 16) : null);

/**
 * The legacy Link share over a current share. `files` are its file roots (folder roots have no
 * legacy form) and only when `unlocked`; the owner also gets the counters and the obsolete stats.
 */
export async function presentSharelink(db: DbOrTx, share: ShareRow, base: string, view: { owner: boolean; unlocked: boolean }): Promise<SharelinkResponse> {
  const legacy = (share.legacy ?? {}) as LegacyOptions;
  const [names, roots, [{ downloads }]] = await Promise.all([
    loadOwnerNames(db, [share.ownerId]),
    view.unlocked ? loadRootItems(db, share) : Promise.resolve({ folders: [], files: [] }),
    db
      .select({ downloads: sql<number>`count(*)`.mapWith(Number) })
      .from(shareAccesses)
      .where(and(eq(shareAccesses.shareId, share.id), inArray(shareAccesses.kind, DOWNLOAD_KINDS))),
  ]);
  const maxDownloads = legacy.max_downloads ?? (isSingleDownload(share) ? 1 : null);
  const remaining = isSingleDownload(share) ? (isConsumed(share) ? 0 : 1) : maxDownloads ? Math.max(0, maxDownloads - downloads) : null;
  const json: SharelinkResponse = {
    id: share.id,
    key: share.key,
    url: shareUrl(base, share.key),
    files: await presentShareItems(db, share, { folders: [], files: roots.files }, true),
    is_valid: !isExpired(share) && !isConsumed(share),
    expiration_date: iso(share.expirationDate),
    password_protected: passwordFingerprint(share.passwordHash),
    remaining_downloads: remaining,
    owner: names.get(share.ownerId) ?? "",
    owner_id: share.ownerId,
    autoupdate: legacy.autoupdate ?? true,
    only_preview: (share.flags & 15) === SHARE_FLAG.previewOnly,
    type: needsCode(share) ? 1 : null,
    force_dl: legacy.force_dl ?? false,
  };
  if (!view.owner) return json;
  return { ...json, nb_downloads: downloads, max_downloads: maxDownloads, notify: wantsReceipt(share), stats: await loadStats(db, share.id) };
}

async function loadStats(db: DbOrTx, shareId: number): Promise<NonNullable<SharelinkResponse["stats"]>> {
  const where = and(eq(shareAccesses.shareId, shareId), inArray(shareAccesses.kind, DOWNLOAD_KINDS));
  const [list, [{ users }]] = await Promise.all([
    db.select().from(shareAccesses).where(where).orderBy(desc(shareAccesses.date), desc(shareAccesses.id)).limit(STATS_LIMIT),
    db.select({ users: countDistinct(shareAccesses.visitor) }).from(shareAccesses).where(where),
  ]);
  // Visitors have no account: they appear as the guest, like unauthenticated actors in the logs.
  return { downloads: list.map((a) => ({ id: a.id, date: a.date.toISOString(), user: "guest", user_id: null, geo: a.geo, env: a.env })), users: Number(users) };
}

export async function presentSharelinks(db: DbOrTx, list: ShareRow[], base: string): Promise<SharelinkResponse[]> {
  return Promise.all(list.map((share) => presentSharelink(db, share, base, { owner: true, unlocked: true })));
}
