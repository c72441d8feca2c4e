import "server-only";
import { sql } from "drizzle-orm";
import { rows } from "@/db";
import type { ShareAnalyticsJson } from "@/lib/contracts/engagement";
import type { AuthedCtx } from "../../context";
import { getOwnShareOrThrow } from "../../shares/load-share";
import { loadVisitorRows } from "./visitor-rows";

/**
 * GET /share/(id)/analytics: the owner's (or an administrator's) view of a link's engagement;
 * anyone else gets the 404 of an unknown share (read-share.ts). Read from the visits and their
 * per-page totals (link_visit_pages), never the raw page events, so a link with 10,000 visits and
 * a million events answers in tens of milliseconds (bench, "engagement").
 * - `visitors`: visitors who opened at least one document (`visitors_list` also lists those who
 *   passed the gate without opening one, with 0 visits);
 * - `downloads`: the link's file and zip downloads (its activity records);
 * - `pages[].views`: visits that spent time on the page; `ms_median` over those visits;
 * - `daily`: visits and distinct visitors per UTC day of the visits' start.
 */
export async function shareAnalytics(ctx: AuthedCtx, shareId: number): Promise<ShareAnalyticsJson> {
  const share = await getOwnShareOrThrow(ctx.db, ctx.actor.user, shareId);
  const [totals, pages, daily, visitors] = await Promise.all([
    ctx.db.execute(sql`
      SELECT count(*) AS visits, count(DISTINCT visitor_id) AS visitors,
             (SELECT count(*) FROM share_accesses WHERE share_id = ${share.id} AND kind IN ('download', 'zip')) AS downloads
      FROM link_visits WHERE share_id = ${share.id}`),
    ctx.db.execute(sql`
      SELECT file_id, page, count(*) AS views, sum(ms) AS ms_total, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS ms_median
      FROM link_visit_pages WHERE share_id = ${share.id} AND ms > 0
      GROUP BY file_id, page ORDER BY file_id, page`),
    ctx.db.execute(sql`
      SELECT to_char(day, 'YYYY-MM-DD') AS date, visits, visitors FROM (
        SELECT (started_at AT TIME ZONE 'UTC')::date AS day, count(*) AS visits, count(DISTINCT visitor_id) AS visitors
        FROM link_visits WHERE share_id = ${share.id} GROUP BY 1
      ) days ORDER BY day`),
    loadVisitorRows(ctx.db, share.id),
  ]);
  const [total] = rows<{ visits: string | number; visitors: string | number; downloads: string | number }>(totals);
  const pageList = rows<{ file_id: number; page: number; views: string | number; ms_total: string | number; ms_median: string | number }>(pages).map((p) => ({
    file_id: Number(p.file_id),
    page: Number(p.page),
    views: Number(p.views),
    ms_total: Number(p.ms_total),
    ms_median: Math.round(Number(p.ms_median)),
  }));
  return {
    visits: Number(total.visits),
    visitors: Number(total.visitors),
    downloads: Number(total.downloads),
    total_ms: pageList.reduce((sum, p) => sum + p.ms_total, 0),
    pages: pageList,
    daily: rows<{ date: string; visits: string | number; visitors: string | number }>(daily).map((d) => ({ date: d.date, visits: Number(d.visits), visitors: Number(d.visitors) })),
    visitors_list: visitors,
  };
}
