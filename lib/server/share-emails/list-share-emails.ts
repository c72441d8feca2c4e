import "server-only";
import { count, desc, eq } from "drizzle-orm";
import { shareEmails } from "@/db/schema";
import type { AuthedCtx } from "../context";
import { envelope } from "../present/envelope";
import { presentShareEmails } from "./present-share-emails";

/** GET /shares/emails: the caller's email shares, newest first (envelope). */
export async function listShareEmails(ctx: AuthedCtx, page: { offset: number; limit: number }, base: string) {
  const where = eq(shareEmails.ownerId, ctx.actor.user.id);
  const [found, [{ total }]] = await Promise.all([
    ctx.db.select().from(shareEmails).where(where).orderBy(desc(shareEmails.createdAt), desc(shareEmails.id)).offset(page.offset).limit(page.limit),
    ctx.db.select({ total: count() }).from(shareEmails).where(where),
  ]);
  return envelope(await presentShareEmails(ctx.db, found, base), page.offset, total);
}
