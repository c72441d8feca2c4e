import "server-only";
import { sql } from "drizzle-orm";
import { rows, type Db } from "@/db";
import { idArray } from "../../folders/id-array";

/** Raw page events are kept this many days (ENGAGEMENT_RETENTION_DAYS, default 365), then folded into link_page_days. */
export const retentionDays = () => {
  const days = Number(process.env.ENGAGEMENT_RETENTION_DAYS);
  return Number.isInteger(days) && days > 0 ? days : 365;
};

/** Visits whose old events one statement folds; and at most this many batches per run (the next run takes the rest). */
const VISITS_PER_BATCH = 500;
const MAX_BATCHES = 200;

/**
 * Job "engagement.daily", enqueued once a day (scheduler.ts):
 * 1. link_engagement_days for the days before today (UTC): visits, distinct visitors and visible
 *    time per link and day of the visits' start, from link_visits and link_visit_pages. The last
 *    two days written are recomputed (page times arrive after a visit starts), older ones are final;
 *    the first run covers the whole history. Idempotent: every figure is recomputed, not added.
 * 2. Retention: page events before the cutoff day (today minus ENGAGEMENT_RETENTION_DAYS, UTC
 *    midnight) are folded into link_page_days (views: visits with events on that page that day;
 *    ms) and deleted, a batch of whole visits at a time, so a visit's events of one day are folded
 *    in one statement and its views counted once. link_visit_pages is kept: the owner's analytics
 *    still count that time; only the visitor timeline loses the deleted events.
 */
export async function engagementDailyJob(db: Db): Promise<void> {
  await rollUpDays(db);
  await foldOldEvents(db, retentionDays());
}

async function rollUpDays(db: Db) {
  await db.execute(sql`
    WITH bounds AS (
      SELECT coalesce((SELECT max(day) - 1 FROM link_engagement_days), (SELECT min((started_at AT TIME ZONE 'UTC')::date) FROM link_visits)) AS first_day,
             (now() AT TIME ZONE 'UTC')::date AS today
    )
    INSERT INTO link_engagement_days (share_id, day, visits, visitors, ms)
    SELECT v.share_id, (v.started_at AT TIME ZONE 'UTC')::date AS day, count(*), count(DISTINCT v.visitor_id),
           coalesce(sum((SELECT sum(p.ms) FROM link_visit_pages p WHERE p.visit_id = v.id)), 0)
    FROM link_visits v, bounds b
    WHERE v.started_at >= b.first_day::timestamp AT TIME ZONE 'UTC' AND v.started_at < b.today::timestamp AT TIME ZONE 'UTC'
    GROUP BY v.share_id, day
    ON CONFLICT (share_id, day) DO UPDATE SET visits = excluded.visits, visitors = excluded.visitors, ms = excluded.ms`);
}

async function foldOldEvents(db: Db, days: number) {
  const [{ cutoff }] = rows<{ cutoff: string }>(await db.execute(sql`SELECT ((now() AT TIME ZONE 'UTC')::date - ${days}::int)::text AS cutoff`));
  const before = sql`${cutoff}::date::timestamp AT TIME ZONE 'UTC'`;
  // Events come after their visit starts, and visit ids grow with time: the oldest visit that still
  // has events (an index lookup) is where the walk starts, so folded history is never walked again.
  const [{ first }] = rows<{ first: string | number | null }>(await db.execute(sql`SELECT min(visit_id) AS first FROM link_page_events`));
  if (first === null) return;
  let after = Number(first) - 1;
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const visits = rows<{ id: string | number }>(
      await db.execute(sql`SELECT id FROM link_visits WHERE id > ${after} AND started_at < ${before} ORDER BY id LIMIT ${VISITS_PER_BATCH}`),
    ).map((v) => Number(v.id));
    if (visits.length === 0) return;
    await db.execute(sql`
      WITH gone AS (
        DELETE FROM link_page_events WHERE visit_id = ANY(${idArray(visits)}::bigint[]) AND at < ${before}
        RETURNING share_id, visit_id, file_id, page, ms, at
      )
      INSERT INTO link_page_days (share_id, file_id, page, day, views, ms)
      SELECT share_id, file_id, page, (at AT TIME ZONE 'UTC')::date, count(DISTINCT visit_id), sum(ms) FROM gone
      GROUP BY share_id, file_id, page, (at AT TIME ZONE 'UTC')::date
      ON CONFLICT (share_id, file_id, page, day) DO UPDATE SET views = link_page_days.views + excluded.views, ms = link_page_days.ms + excluded.ms`);
    after = visits[visits.length - 1];
    if (visits.length < VISITS_PER_BATCH) return;
  }
}
