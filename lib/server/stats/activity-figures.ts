import "server-only";
import { sql } from "drizzle-orm";
import { rows, type DbOrTx } from "@/db";
import { ROLE } from "@/db/schema";

const VISIT_DAYS = 30;
const MAX_VISITS = 100;

type Person = { id: number; login: string; firstname: string; lastname: string };
const nameOf = (r: Person) => `${r.firstname} ${r.lastname}`.trim() || r.login;

/**
 * Visits: the accounts seen in the last 30 days (a session used, or a sign-in), latest first, with
 * how many audit-log entries each wrote over that period. Bounded by the period, not the table.
 */
export async function visits(db: DbOrTx) {
  const found = rows<Person & { role: number; last_seen: Date | string; actions: string | number }>(
    await db.execute(sql`
      WITH seen AS (
        SELECT user_id, max(last_used_at) AS at FROM sessions
        WHERE last_used_at > now() - make_interval(days => ${VISIT_DAYS}) GROUP BY user_id
        UNION ALL
        SELECT id, last_login FROM users
        WHERE last_login > now() - make_interval(days => ${VISIT_DAYS}) AND deleted_at IS NULL),
      latest AS (SELECT user_id, max(at) AS at FROM seen GROUP BY user_id ORDER BY 2 DESC LIMIT ${MAX_VISITS}),
      actions AS (
        SELECT user_id, count(*) AS n FROM logs
        WHERE date > now() - make_interval(days => ${VISIT_DAYS}) AND user_id IN (SELECT user_id FROM latest)
        GROUP BY user_id)
      SELECT u.id, u.login, u.firstname, u.lastname, u.role, l.at AS last_seen, coalesce(a.n, 0) AS actions
      FROM latest l JOIN users u ON u.id = l.user_id AND u.deleted_at IS NULL
        LEFT JOIN actions a ON a.user_id = l.user_id
      ORDER BY l.at DESC, u.id`),
  );
  return found.map((r) => ({
    id: String(r.id),
    user: nameOf(r),
    login: r.login,
    last_seen: new Date(r.last_seen).toISOString(),
    actions: Number(r.actions),
    external: r.role === ROLE.external,
  }));
}

/**
 * Slots: accounts that take a seat (active internal users: roles user, administrator, manager).
 * No licence limit exists on this platform, so `allowed` is null; every seat is billable.
 */
export async function slots(db: DbOrTx) {
  const [counted] = rows<{ used: string | number }>(
    await db.execute(sql`SELECT count(*) AS used FROM users WHERE deleted_at IS NULL AND active AND role <> ${ROLE.external}`),
  );
  const recents = rows<Person & { created_at: Date | string }>(
    await db.execute(sql`
      SELECT id, login, firstname, lastname, created_at FROM users
      WHERE deleted_at IS NULL AND role <> ${ROLE.external} AND created_at > now() - interval '30 days'
      ORDER BY created_at DESC, id DESC LIMIT 20`),
  );
  const used = Number(counted.used);
  return {
    allowed: null,
    used,
    billable: used,
    recents: recents.map((r) => ({ id: String(r.id), user: nameOf(r), login: r.login, creation: new Date(r.created_at).toISOString() })),
  };
}
