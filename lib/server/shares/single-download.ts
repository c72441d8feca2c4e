import "server-only";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { shares, type ShareRow } from "@/db/schema";
import { AppError } from "../errors";
import { isSingleDownload } from "./share-flags";

/**
 * A single-download link's one download, claimed atomically when the bytes are about to go out:
 * of any number of concurrent requests exactly one row update succeeds; the others are a 410
 * `link_exhausted`. Returns the claim (to release it), or null for ordinary links.
 */
export async function claimDownload(db: DbOrTx, share: ShareRow): Promise<Date | null> {
  if (!isSingleDownload(share)) return null;
  const [claimed] = await db
    .update(shares)
    .set({ consumedAt: sql`date_trunc('milliseconds', clock_timestamp())` }) // ms: the claim is compared as a JS Date on release
    .where(and(eq(shares.id, share.id), isNull(shares.consumedAt)))
    .returning({ at: shares.consumedAt });
  if (!claimed?.at) throw new AppError("link_exhausted", "This single-download link has already been used");
  return claimed.at;
}

/**
 * A transfer that broke before its last byte gives the download back, so "single download"
 * means one complete download; the claim's own timestamp guards against releasing another's.
 */
export async function releaseDownload(db: DbOrTx, shareId: number, claim: Date | null): Promise<void> {
  if (!claim) return;
  await db.update(shares).set({ consumedAt: null }).where(and(eq(shares.id, shareId), eq(shares.consumedAt, claim)));
}
