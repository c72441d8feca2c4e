import "server-only";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { uploads, type Folder } from "@/db/schema";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { assertQuota } from "../quotas/assert-quota";
import { depositExpiryMs, uploadExpiryMs } from "./collect-uploads";

/**
 * Open uploads (chunked or tus) a user may have at once, and open deposits per drop link. A
 * deposit runs as the link's owner but counts against its link only, so visitors of one link
 * cannot block the owner's own uploads. Each open upload also holds its whole size against the
 * quotas, so these caps bound rows and work folders, not bytes.
 */
export const MAX_OPEN_UPLOADS_PER_USER = 20;
export const MAX_OPEN_DEPOSITS_PER_LINK = 10;

export type NewUpload = typeof uploads.$inferInsert & { size: number };

/**
 * Opens an upload session, reserving its whole declared `size` against every quota that applies
 * (user, nearest folder quota, platform) before a byte is stored: the check and the insert run in
 * one transaction under the quota locks, and the quota checks count every open reservation, so
 * two uploads under way can never both be promised the same room. A session that exists already
 * (the next chunk of the same upload) is only touched. 507 over a quota, 429 over the caps.
 * `created` tells the caller it opened the session (and should drop it if its chunk fails).
 */
export async function reserveUpload(ctx: AuthedCtx, row: NewUpload, folder: Pick<Folder, "id" | "path">): Promise<{ created: boolean }> {
  // The usual case, the next chunk of an open upload: one statement, no transaction or lock
  // (touching a row needs neither). Not there yet: the locked path below decides.
  const [touched] = await ctx.db.update(uploads).set({ updatedAt: new Date() }).where(eq(uploads.id, row.id)).returning({ id: uploads.id });
  if (touched) return { created: false };
  return ctx.db.transaction(async (tx) => {
    // One opening at a time per user (or per link): the count and the existence check below see
    // the sessions opened just before, including another request for this very upload.
    await tx.execute(row.ulinkId ? sql`SELECT pg_advisory_xact_lock(727004, ${row.ulinkId})` : sql`SELECT pg_advisory_xact_lock(727003, ${row.userId})`);
    const [existing] = await tx.update(uploads).set({ updatedAt: new Date() }).where(eq(uploads.id, row.id)).returning({ id: uploads.id });
    if (existing) return { created: false };

    if (row.ulinkId) {
      const since = new Date(Date.now() - depositExpiryMs());
      const [{ open }] = await tx
        .select({ open: sql<number>`count(*)::int` })
        .from(uploads)
        .where(and(eq(uploads.ulinkId, row.ulinkId), gt(uploads.updatedAt, since)));
      if (open >= MAX_OPEN_DEPOSITS_PER_LINK) {
        throw new AppError("too_many_requests", `This drop link already has ${MAX_OPEN_DEPOSITS_PER_LINK} deposits under way; try again later`, undefined, { "Retry-After": "600" });
      }
    } else {
      const since = new Date(Date.now() - uploadExpiryMs());
      const [{ open }] = await tx
        .select({ open: sql<number>`count(*)::int` })
        .from(uploads)
        .where(and(eq(uploads.userId, row.userId), isNull(uploads.ulinkId), gt(uploads.updatedAt, since)));
      if (open >= MAX_OPEN_UPLOADS_PER_USER) {
        throw new AppError("too_many_requests", `You already have ${MAX_OPEN_UPLOADS_PER_USER} uploads under way: finish or cancel some first`, undefined, { "Retry-After": "60" });
      }
    }

    if (row.size > 0) await assertQuota(tx, { userId: row.userId, folder }, row.size, { lock: true });
    await tx.insert(uploads).values(row);
    return { created: true };
  });
}
