import "server-only";
import { count, desc, eq } from "drizzle-orm";
import { shares } from "@/db/schema";
import type { AuthedCtx } from "../context";
import { envelope } from "../present/envelope";
import { presentShares } from "./present-share";

/** GET /shares: the caller's own link shares, newest first, expired ones included. */
export async function listShares(ctx: AuthedCtx, paging: { offset_start: number; nb_objects: number }, base: string) {
  const mine = eq(shares.ownerId, ctx.actor.user.id);
  const [found, [total]] = await Promise.all([
    ctx.db.select().from(shares).where(mine).orderBy(desc(shares.id)).limit(paging.nb_objects).offset(paging.offset_start),
    ctx.db.select({ n: count() }).from(shares).where(mine),
  ]);
  return envelope(await presentShares(ctx.db, found, base), paging.offset_start, Number(total.n));
}
