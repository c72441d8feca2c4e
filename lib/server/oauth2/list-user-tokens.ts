import "server-only";
import { count, desc, eq } from "drizzle-orm";
import { oauth2Grants } from "@/db/schema";
import type { AuthedCtx } from "../context";
import { envelope } from "../present/envelope";
import { presentGrants } from "./present-apps";

/** GET /oauth2/user/tokens: the applications the caller authorised, newest first. */
export async function listUserTokens(ctx: AuthedCtx, page: { offset: number; limit: number }) {
  const where = eq(oauth2Grants.userId, ctx.actor.user.id);
  const [found, [{ total }]] = await Promise.all([
    ctx.db.select().from(oauth2Grants).where(where).orderBy(desc(oauth2Grants.createdAt), desc(oauth2Grants.id)).offset(page.offset).limit(page.limit),
    ctx.db.select({ total: count() }).from(oauth2Grants).where(where),
  ]);
  return envelope(await presentGrants(ctx.db, found), page.offset, total);
}
