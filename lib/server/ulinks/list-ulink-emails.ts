import "server-only";
import { count, desc, eq } from "drizzle-orm";
import { ulinkEmails } from "@/db/schema";
import type { AuthedCtx } from "../context";
import { envelope } from "../present/envelope";
import { presentUlinkEmails } from "./present-ulink-emails";

/** GET /ulinks/emails: the caller's drop links by email, newest first (envelope). */
export async function listUlinkEmails(ctx: AuthedCtx, page: { offset: number; limit: number }, base: string) {
  const where = eq(ulinkEmails.ownerId, ctx.actor.user.id);
  const [found, [{ total }]] = await Promise.all([
    ctx.db.select().from(ulinkEmails).where(where).orderBy(desc(ulinkEmails.createdAt), desc(ulinkEmails.id)).offset(page.offset).limit(page.limit),
    ctx.db.select({ total: count() }).from(ulinkEmails).where(where),
  ]);
  return envelope(await presentUlinkEmails(ctx.db, found, base), page.offset, total);
}
