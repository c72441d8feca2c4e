import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { rows, type DbOrTx } from "@/db";

const DOWNLOAD_EVENT = 3; // api.md: file timeline type 3, download
const DAY_MS = 86_400_000;

/** A UTC day as YYYY-MM-DD. */
export const utcDay = (date: Date) => date.toISOString().slice(0, 10);

/** Midnight UTC starting `day`, as a timestamptz (never the session's time zone, which `::date` would use). */
const startOf = (day: string) => sql`${`${day}T00:00:00Z`}::timestamptz`;
const endOf = (day: string) => sql`${new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString()}::timestamptz`;

/**
 * A signature counts once, when its request is done; a mass request's parent only settles its
 * children (each child is one signature), so it is left out.
 */
const SIGNED = sql`status = 'done' AND NOT (is_masses AND parent_id IS NULL)`;
/** A validation counts when its workflow instance closes validated (flux 1 and 4). */
const VALIDATED = sql`state = 'validated'`;

export type DayCounts = { uploads: number; downloads: number; signatures: number; validations: number };

/**
 * What happened during one UTC day: versions created (uploads), downloads, signatures completed,
 * validations completed. Each is a range scan on an index of its date (file_versions.created_at,
 * events (type, date), and migration 0024's partial indexes), so today's figures cost the day's
 * rows, never the table's.
 */
export async function dayCounts(db: DbOrTx, day: string): Promise<DayCounts> {
  const [from, to] = [startOf(day), endOf(day)];
  const [r] = rows<Record<keyof DayCounts, string | number>>(
    await db.execute(sql`
      SELECT
        (SELECT count(*) FROM file_versions WHERE created_at >= ${from} AND created_at < ${to}) AS uploads,
        (SELECT count(*) FROM events WHERE type = ${DOWNLOAD_EVENT} AND date >= ${from} AND date < ${to}) AS downloads,
        (SELECT count(*) FROM signature_requests WHERE ${SIGNED} AND completed_at >= ${from} AND completed_at < ${to}) AS signatures,
        (SELECT count(*) FROM workflow_instances WHERE ${VALIDATED} AND closed_at >= ${from} AND closed_at < ${to}) AS validations`),
  );
  return { uploads: Number(r.uploads), downloads: Number(r.downloads), signatures: Number(r.signatures), validations: Number(r.validations) };
}

/** Distinct accounts that used a session or signed in at or after `since` (sessions_last_used_at_idx, users_last_login_idx). */
async function activeSince(db: DbOrTx, since: SQL): Promise<number> {
  const [r] = rows<{ n: string | number }>(
    await db.execute(sql`
      SELECT count(*) AS n FROM (
        SELECT user_id FROM sessions WHERE last_used_at >= ${since}
        UNION
        SELECT id FROM users WHERE last_login >= ${since} AND deleted_at IS NULL) s`),
  );
  return Number(r.n);
}

/** Accounts active since the start of `day` (UTC): a day's active users as they stand now. */
export const activeUsersOfDay = (db: DbOrTx, day: string) => activeSince(db, startOf(day));

/** Accounts active over the last `days` days (the dashboard's "30 days"), each counted once. */
export const activeUsersOver = (db: DbOrTx, days: number, now = new Date()) => activeSince(db, sql`${new Date(now.getTime() - days * DAY_MS).toISOString()}::timestamptz`);

/**
 * Signatures and validations completed per UTC day from `since` (a day) on: the past days of the
 * dashboard's series, read from the requests and instances themselves (exact, never sampled).
 */
export async function completionsPerDay(db: DbOrTx, since: string): Promise<Map<string, { signatures: number; validations: number }>> {
  const from = startOf(since);
  const found = rows<{ day: string; signatures: string | number; validations: string | number }>(
    await db.execute(sql`
      SELECT day, sum(s) AS signatures, sum(v) AS validations FROM (
        SELECT to_char(completed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, 1 AS s, 0 AS v
          FROM signature_requests WHERE ${SIGNED} AND completed_at >= ${from}
        UNION ALL
        SELECT to_char(closed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), 0, 1
          FROM workflow_instances WHERE ${VALIDATED} AND closed_at >= ${from}) c
      GROUP BY day`),
  );
  return new Map(found.map((r) => [r.day, { signatures: Number(r.signatures), validations: Number(r.validations) }]));
}
