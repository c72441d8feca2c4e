import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { rows, type DbOrTx } from "@/db";
import type { ShareAnalyticsJson } from "@/lib/contracts/engagement";

/** A timestamp as epoch milliseconds: the same number from postgres.js and PGlite, whatever their date parsing. */
export const epochMs = (column: SQL) => sql`(extract(epoch FROM ${column}) * 1000)::float8`;
export const isoOf = (ms: number | string | null | undefined) => (ms === null || ms === undefined ? null : new Date(Number(ms)).toISOString());

export type VisitorRow = ShareAnalyticsJson["visitors_list"][number];

/**
 * Every visitor of a link (whoever passed its gate, opened a document or not), newest first, with
 * their engagement read from the visits and their per-page totals, never the raw events:
 * - `ms`: visible time over all their visits; `pages_seen`: distinct document pages with time;
 * - `completion`: pages seen / the pages of the documents they opened (a document's page count:
 *   1 for an image, its rendition's count when known, else the highest page reported), 0..1,
 *   each document counted once per visitor however many times they opened it;
 * - `downloads`: the files and zips they downloaded whole through the link (share_accesses).
 */
export async function loadVisitorRows(db: DbOrTx, shareId: number): Promise<VisitorRow[]> {
  const found = rows<{
    id: number;
    email: string | null;
    first_at: number | string;
    last_at: number | string;
    agreement_at: number | string | null;
    visits: number | string | null;
    ms: number | string | null;
    seen: number | string | null;
    pages: number | string | null;
    downloads: number | string | null;
  }>(
    await db.execute(sql`
      SELECT v.id, v.email, ${epochMs(sql`v.first_at`)} AS first_at, ${epochMs(sql`v.last_at`)} AS last_at,
        ${epochMs(sql`v.agreement_at`)} AS agreement_at, c.visits, c.pages, p.ms, p.seen, dl.downloads
      FROM link_visitors v
      LEFT JOIN (
        SELECT visitor_id, sum(ms) AS ms, count(*) FILTER (WHERE ms > 0) AS seen
        FROM (SELECT visitor_id, file_id, page, sum(ms) AS ms FROM link_visit_pages WHERE share_id = ${shareId} GROUP BY visitor_id, file_id, page) per_page
        GROUP BY visitor_id
      ) p ON p.visitor_id = v.id
      LEFT JOIN (
        SELECT o.visitor_id, sum(o.n) AS visits, sum(d.pages) AS pages
        FROM (SELECT visitor_id, file_id, count(*) AS n FROM link_visits WHERE share_id = ${shareId} GROUP BY visitor_id, file_id) o
        JOIN (
          SELECT f.file_id,
            CASE WHEN fv.mime LIKE 'image/%' THEN 1
                 WHEN vp.page_count > 0 THEN vp.page_count
                 -- Not known yet: the highest page reported (an index lookup).
                 ELSE coalesce((SELECT max(page) FROM link_visit_pages lp WHERE lp.share_id = ${shareId} AND lp.file_id = f.file_id), 1) END AS pages
          FROM (SELECT DISTINCT file_id FROM link_visits WHERE share_id = ${shareId}) f
          LEFT JOIN file_versions fv ON fv.id = f.file_id
          LEFT JOIN version_previews vp ON vp.version_id = f.file_id
        ) d ON d.file_id = o.file_id
        GROUP BY o.visitor_id
      ) c ON c.visitor_id = v.id
      LEFT JOIN (
        SELECT visitor_id, count(*) AS downloads FROM share_accesses
        WHERE share_id = ${shareId} AND visitor_id IS NOT NULL AND kind IN ('download', 'zip')
        GROUP BY visitor_id
      ) dl ON dl.visitor_id = v.id
      WHERE v.share_id = ${shareId}
      ORDER BY v.last_at DESC, v.id DESC`),
  );
  return found.map((r) => {
    const seen = Number(r.seen ?? 0);
    const pages = Number(r.pages ?? 0);
    return {
      visitor_id: Number(r.id),
      email: r.email,
      visits: Number(r.visits ?? 0),
      first_at: isoOf(r.first_at)!,
      last_at: isoOf(r.last_at)!,
      ms: Number(r.ms ?? 0),
      pages_seen: seen,
      completion: pages > 0 ? Math.min(1, Math.round((seen / pages) * 1000) / 1000) : 0,
      downloads: Number(r.downloads ?? 0),
      agreement_at: isoOf(r.agreement_at),
    };
  });
}
