import "server-only";
import { and, count, desc, eq, inArray } from "drizzle-orm";
import { jobs } from "@/db/schema";
import type { ListJobsQuery } from "@/lib/contracts/jobs";
import { type AuthedCtx, isAdmin } from "../context";
import { forbidden } from "../errors";
import { envelope } from "../present/envelope";
import { presentJob } from "./present-job";

/** GET /admin/jobs: the queue, newest first, by status (and kind); administrators only. */
export async function listJobs(ctx: AuthedCtx, query: ListJobsQuery) {
  if (!isAdmin(ctx.actor.user)) throw forbidden("Administrators only");
  const where = and(inArray(jobs.status, query.status), query.kind ? eq(jobs.kind, query.kind) : undefined);
  const [page, [{ total }]] = await Promise.all([
    ctx.db.select().from(jobs).where(where).orderBy(desc(jobs.id)).offset(query.offset_start).limit(query.nb_objects),
    ctx.db.select({ total: count() }).from(jobs).where(where),
  ]);
  return envelope(page.map(presentJob), query.offset_start, Number(total));
}
