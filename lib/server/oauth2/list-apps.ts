import "server-only";
import { asc, count } from "drizzle-orm";
import { oauth2Apps } from "@/db/schema";
import type { AuthedCtx } from "../context";
import { envelope } from "../present/envelope";
import { presentApps } from "./present-apps";

/** GET /oauth2/apps: every application of the platform, by name (administrators). */
export async function listApps(ctx: AuthedCtx, page: { offset: number; limit: number }) {
  const [found, [{ total }]] = await Promise.all([
    ctx.db.select().from(oauth2Apps).orderBy(asc(oauth2Apps.name), asc(oauth2Apps.id)).offset(page.offset).limit(page.limit),
    ctx.db.select({ total: count() }).from(oauth2Apps),
  ]);
  return envelope(await presentApps(ctx.db, found), page.offset, total);
}
