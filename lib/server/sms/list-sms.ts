import "server-only";
import { count, desc } from "drizzle-orm";
import { smsMessages } from "@/db/schema";
import type { AuthedCtx } from "../context";
import { envelope, iso } from "../present/envelope";

/** GET /admin/sms (administrators): the text messages sent, newest first. */
export async function listSms(ctx: AuthedCtx, paging: { offset_start: number; nb_objects: number }) {
  const [found, [total]] = await Promise.all([
    ctx.db.select().from(smsMessages).orderBy(desc(smsMessages.id)).limit(paging.nb_objects).offset(paging.offset_start),
    ctx.db.select({ n: count() }).from(smsMessages),
  ]);
  const objects = found.map((m) => ({ id: m.id, to: m.to, body: m.body, provider: m.provider, creation_date: m.createdAt.toISOString(), sent_date: iso(m.sentAt), error: m.error }));
  return envelope(objects, paging.offset_start, Number(total.n));
}
