import "server-only";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { fileVersions, files, linkPageEvents, linkVisitors, linkVisits } from "@/db/schema";
import type { VisitorTimelineJson } from "@/lib/contracts/engagement";
import { AppError } from "../../errors";
import type { AuthedCtx } from "../../context";
import { getOwnShareOrThrow } from "../../shares/load-share";

/** At most this many page events in one timeline (the earliest ones). */
const MAX_EVENTS = 10_000;

/**
 * GET /share/(id)/analytics/visitors/(visitorId): one visitor's visits, oldest first, each with its
 * page events in the order they came. Events older than the retention period
 * (ENGAGEMENT_RETENTION_DAYS) have been folded into daily totals and are no longer listed; the
 * visit's `ms` (its per-page totals) still counts them.
 */
export async function visitorTimeline(ctx: AuthedCtx, shareId: number, visitorId: number): Promise<VisitorTimelineJson> {
  const share = await getOwnShareOrThrow(ctx.db, ctx.actor.user, shareId);
  const [visitor] = await ctx.db
    .select({ id: linkVisitors.id, email: linkVisitors.email })
    .from(linkVisitors)
    .where(and(eq(linkVisitors.id, visitorId), eq(linkVisitors.shareId, share.id)))
    .limit(1);
  if (!visitor) throw new AppError("not_found", "Visitor not found");
  const visits = await ctx.db
    .select({
      id: linkVisits.id,
      fileId: linkVisits.fileId,
      fileName: files.name,
      startedAt: linkVisits.startedAt,
      lastAt: linkVisits.lastAt,
      ms: sql<string | null>`(SELECT sum(ms) FROM link_visit_pages p WHERE p.visit_id = ${linkVisits.id})`,
    })
    .from(linkVisits)
    .leftJoin(fileVersions, eq(fileVersions.id, linkVisits.fileId))
    .leftJoin(files, eq(files.id, fileVersions.fileId))
    .where(and(eq(linkVisits.visitorId, visitor.id), eq(linkVisits.shareId, share.id)))
    .orderBy(asc(linkVisits.startedAt), asc(linkVisits.id));
  const events = visits.length
    ? await ctx.db
        .select({ visitId: linkPageEvents.visitId, page: linkPageEvents.page, ms: linkPageEvents.ms, at: linkPageEvents.at })
        .from(linkPageEvents)
        .where(inArray(linkPageEvents.visitId, visits.map((v) => v.id)))
        .orderBy(asc(linkPageEvents.at), asc(linkPageEvents.id))
        .limit(MAX_EVENTS)
    : [];
  const byVisit = new Map<number, VisitorTimelineJson["visits"][number]["events"]>(visits.map((v) => [v.id, []]));
  for (const e of events) byVisit.get(e.visitId)?.push({ page: e.page, ms: e.ms, at: e.at.toISOString() });
  return {
    visitor_id: visitor.id,
    email: visitor.email,
    visits: visits.map((v) => ({
      visit_id: v.id,
      file_id: v.fileId,
      file_name: v.fileName ?? "",
      started_at: v.startedAt.toISOString(),
      last_at: v.lastAt.toISOString(),
      ms: Number(v.ms ?? 0),
      events: byVisit.get(v.id) ?? [],
    })),
  };
}
