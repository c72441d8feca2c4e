import { randomBytes } from "node:crypto";
import { json, request } from "./http-client.mjs";
import { sequentialLatency } from "./load.mjs";
import { attempt, log } from "./util.mjs";

/**
 * Document engagement (issue 30): the owner's analytics of one busy link. Seeded by SQL with the
 * server down: a link share of the bench user's `download.bin` (10 pages by its rendition) with
 * `visitors` visitors, `visits` visits (spread over 30 days) and `events` page events (an equal
 * share per visit and page), and the per-visit page totals the routes keep beside them
 * (link_visit_pages, what `GET /share/(id)/analytics` reads). Returns the share's id.
 */
export async function seedEngagement(db, { login, fileId, versionId, visitors = 1000, visits = 10_000, events = 1_000_000, pages = 10 }) {
  const t0 = performance.now();
  const [user] = await db.query(`SELECT id FROM users WHERE lower(login) = lower($1) AND deleted_at IS NULL`, [login]);
  const perVisitor = Math.ceil(visits / visitors);
  const perPage = Math.max(1, Math.round(events / visits / pages));
  await db.exec("BEGIN");
  const [share] = await db.query(`INSERT INTO shares (key, flags, name, owner_id) VALUES ($1, 4, 'bench-engagement', $2) RETURNING id`, [randomBytes(12).toString("base64url"), Number(user.id)]);
  const shareId = Number(share.id);
  await db.query(`INSERT INTO share_roots (share_id, entity_type, object_id) VALUES ($1, 1, $2)`, [shareId, fileId]);
  await db.query(
    `INSERT INTO version_previews (version_id, state, page_count) VALUES ($1, 'available', $2)
     ON CONFLICT (version_id) DO UPDATE SET state = 'available', page_count = $2`,
    [versionId, pages],
  );
  await db.query(
    `INSERT INTO link_visitors (share_id, email, first_at, last_at)
     SELECT $1::int, 'visitor-' || g || '@bench.test', now() - interval '30 days', now() - (g % 30) * interval '1 day' FROM generate_series(1, $2::int) g`,
    [shareId, visitors],
  );
  await db.query(
    `INSERT INTO link_visits (share_id, visitor_id, token_hash, file_id, started_at, last_at)
     SELECT $1::int, v.id, 'bench', $2::int, t, t + interval '5 minutes'
     FROM (SELECT id FROM link_visitors WHERE share_id = $1::int) v, generate_series(1, $3::int) k,
          LATERAL (SELECT now() - ((v.id * 7 + k * 13) % 30) * interval '1 day' - ((v.id + k) % 1440) * interval '1 minute' AS t) s
     ORDER BY t LIMIT $4::int`,
    [shareId, versionId, perVisitor, visits],
  );
  await db.query(
    `INSERT INTO link_page_events (share_id, visit_id, visitor_id, file_id, page, ms, at)
     SELECT $1::int, v.id, v.visitor_id, v.file_id, p, 200 + (v.id * 7919 + p * 104729 + k * 31) % 20000, v.started_at + (p * $3::int + k) * interval '1 second'
     FROM link_visits v, generate_series(1, $2::int) p, generate_series(1, $3::int) k WHERE v.share_id = $1::int`,
    [shareId, pages, perPage],
  );
  await db.query(
    `INSERT INTO link_visit_pages (visit_id, share_id, visitor_id, file_id, page, ms)
     SELECT visit_id, share_id, visitor_id, file_id, page, sum(ms) FROM link_page_events WHERE share_id = $1::int GROUP BY visit_id, share_id, visitor_id, file_id, page`,
    [shareId],
  );
  await db.exec("COMMIT");
  await db.exec("ANALYZE link_visitors, link_visits, link_page_events, link_visit_pages");
  const [{ n }] = await db.query(`SELECT count(*) AS n FROM link_page_events WHERE share_id = $1`, [shareId]);
  return { shareId, visitors, visits, events: Number(n), seedMs: Math.round(performance.now() - t0) };
}

/**
 * GET /api/share/(id)/analytics of the seeded link as its owner: the answer checked (its visits are
 * the seeded visits), then median and p99 with one client (target < 100 ms: api.md's engagement
 * view never adds up the raw events).
 */
export async function benchEngagement({ base, auth, seeded, config, report, figures }) {
  const url = `${base}/api/share/${seeded.shareId}/analytics`;
  log(`engagement: GET /api/share/(id)/analytics over ${seeded.visits} visits and ${seeded.events} page events`);
  const first = await attempt("engagement check", () => request(url, { headers: auth }));
  const visits = first.error || first.status !== 200 ? null : json(first).visits;
  report.check(`link analytics answers ${seeded.visits} visits`, visits === seeded.visits, visits === null ? `no: ${first.error ?? `HTTP ${first.status}`}` : visits === seeded.visits ? "yes" : `no: ${visits}`);
  const seq = await attempt("engagement latency", () => sequentialLatency(url, auth, { warmup: config.warmup, count: config.sequential }));
  figures.engagement = { seeded, sequential: seq };
  const label = `link analytics, ${seeded.visits.toLocaleString("en")} visits and ${seeded.events.toLocaleString("en")} page events`;
  // No reference: the target is absolute.
  report.below(`${label}, median 1 client`, "ms", seq?.median ?? seq, null, "—", 100);
  report.below(`${label}, p99 1 client`, "ms", seq?.p99 ?? seq, null, "—", undefined);
}
