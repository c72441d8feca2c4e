import "server-only";
import { sql } from "drizzle-orm";
import { rows } from "@/db";
import type { LinksAnalyticsJson } from "@/lib/contracts/engagement";
import type { AuthedCtx } from "../../context";
import { epochMs, isoOf } from "./visitor-rows";

/** The summary's daily series: this many days, today included. */
export const SUMMARY_DAYS = 30;

/**
 * GET /shares/analytics: every link share of the caller (their own, as `GET /shares` lists them),
 * newest first, with its visits, visitors, visible time and last visit; and the daily visits and
 * visitors across them over the last 30 UTC days: the days before today from link_engagement_days
 * (kept by the daily "engagement.daily" job), today counted live. A visitor of two links counts
 * once per link.
 */
export async function linksAnalytics(ctx: AuthedCtx): Promise<LinksAnalyticsJson> {
  const owner = ctx.actor.user.id;
  const [links, past, today] = await Promise.all([
    ctx.db.execute(sql`
      SELECT s.id, s.name, s.key, coalesce(v.visits, 0) AS visits, coalesce(v.visitors, 0) AS visitors,
             coalesce((SELECT sum(p.ms) FROM link_visit_pages p WHERE p.share_id = s.id), 0) AS total_ms,
             ${epochMs(sql`v.last_at`)} AS last_at
      FROM shares s
      LEFT JOIN LATERAL (
        SELECT count(*) AS visits, count(DISTINCT visitor_id) AS visitors, max(started_at) AS last_at FROM link_visits WHERE share_id = s.id
      ) v ON true
      WHERE s.owner_id = ${owner}
      ORDER BY s.id DESC`),
    ctx.db.execute(sql`
      SELECT to_char(d.day, 'YYYY-MM-DD') AS date, sum(d.visits) AS visits, sum(d.visitors) AS visitors
      FROM link_engagement_days d JOIN shares s ON s.id = d.share_id
      WHERE s.owner_id = ${owner}
        AND d.day >= (now() AT TIME ZONE 'UTC')::date - ${SUMMARY_DAYS - 1}::int AND d.day < (now() AT TIME ZONE 'UTC')::date
      GROUP BY d.day`),
    ctx.db.execute(sql`
      SELECT to_char((now() AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS date, count(*) AS visits,
             count(DISTINCT (v.share_id, v.visitor_id)) AS visitors
      FROM link_visits v JOIN shares s ON s.id = v.share_id
      WHERE s.owner_id = ${owner} AND v.started_at >= (now() AT TIME ZONE 'UTC')::date::timestamp AT TIME ZONE 'UTC'`),
  ]);
  type Day = { date: string; visits: string | number; visitors: string | number };
  const byDate = new Map<string, { visits: number; visitors: number }>();
  for (const d of [...rows<Day>(past), ...rows<Day>(today)]) byDate.set(d.date, { visits: Number(d.visits), visitors: Number(d.visitors) });
  const todayDate = rows<Day>(today)[0].date;
  const daily = Array.from({ length: SUMMARY_DAYS }, (_, i) => {
    const date = new Date(Date.parse(`${todayDate}T00:00:00Z`) - (SUMMARY_DAYS - 1 - i) * 86_400_000).toISOString().slice(0, 10);
    return { date, ...(byDate.get(date) ?? { visits: 0, visitors: 0 }) };
  });
  return {
    links: rows<{ id: number; name: string | null; key: string; visits: string | number; visitors: string | number; total_ms: string | number; last_at: number | string | null }>(links).map((l) => ({
      share_id: Number(l.id),
      name: l.name,
      key: l.key,
      visits: Number(l.visits),
      visitors: Number(l.visitors),
      total_ms: Number(l.total_ms),
      last_visit_at: isoOf(l.last_at),
    })),
    daily,
  };
}
