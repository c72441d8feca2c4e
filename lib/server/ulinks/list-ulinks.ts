import "server-only";
import { and, count, desc, eq, isNull } from "drizzle-orm";
import { ulinks } from "@/db/schema";
import type { AuthedCtx } from "../context";
import { envelope } from "../present/envelope";
import { presentUlinks } from "./present-ulinks";

/**
 * GET /ulinks: the caller's own drop links, newest first, expired ones included (they stay
 * listed). Links made for a drop link by email are listed under GET /ulinks/emails instead.
 */
export async function listUlinks(ctx: AuthedCtx, page: { offset: number; limit: number }, base: string) {
  const where = and(eq(ulinks.ownerId, ctx.actor.user.id), isNull(ulinks.ulinkEmailId));
  const [found, [{ total }]] = await Promise.all([
    ctx.db.select().from(ulinks).where(where).orderBy(desc(ulinks.createdAt), desc(ulinks.id)).offset(page.offset).limit(page.limit),
    ctx.db.select({ total: count() }).from(ulinks).where(where),
  ]);
  return envelope(await presentUlinks(ctx.db, found, base), page.offset, total);
}
