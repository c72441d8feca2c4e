import "server-only";
import { count, desc, eq } from "drizzle-orm";
import { shares } from "@/db/schema";
import type { AuthedCtx } from "../context";
import { envelope } from "../present/envelope";
import { presentSharelinks } from "./present-sharelinks";

/** GET /sharelinks (obsolete): my link shares in the legacy form, newest first (envelope). */
export async function listSharelinks(ctx: AuthedCtx, page: { offset: number; limit: number }, base: string) {
  const mine = eq(shares.ownerId, ctx.actor.user.id);
  const [found, [{ total }]] = await Promise.all([
    ctx.db.select().from(shares).where(mine).orderBy(desc(shares.id)).offset(page.offset).limit(page.limit),
    ctx.db.select({ total: count() }).from(shares).where(mine),
  ]);
  return envelope(await presentSharelinks(ctx.db, found, base), page.offset, total);
}
