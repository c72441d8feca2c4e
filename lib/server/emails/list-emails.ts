import "server-only";
import { and, count, desc, eq } from "drizzle-orm";
import { emails } from "@/db/schema";
import type { ListEmailsQuery } from "@/lib/contracts/emails";
import type { AuthedCtx } from "../context";
import { envelope } from "../present/envelope";
import { visibleEmails } from "./email-access";
import { presentEmails } from "./present-emails";

/** GET /emails: the caller's emails (all of them for an administrator), newest first, optionally of one type. */
export async function listEmails(ctx: AuthedCtx, query: ListEmailsQuery) {
  const where = and(visibleEmails(ctx.actor.user), query.type ? eq(emails.type, query.type) : undefined);
  const [rows, [{ total }]] = await Promise.all([
    ctx.db.select().from(emails).where(where).orderBy(desc(emails.id)).offset(query.offset_start).limit(query.nb_objects),
    ctx.db.select({ total: count() }).from(emails).where(where),
  ]);
  return envelope(await presentEmails(ctx.db, rows), query.offset_start, Number(total));
}
