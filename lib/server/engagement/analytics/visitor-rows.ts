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
 *   1 for an image, its rendition's count when known, else the highest page reported), 0..1;
 * - `downloads`: 0, as a download through the link is not tied to a visitor.
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
  }>(
    await db.execute(sql`
      WITH per_page AS (
        SELECT visitor_id, file_id, page, sum(ms) AS ms FROM link_visit_pages WHERE share_id = ${shareId} GROUP BY visitor_id, file_id, page
      ), per_visitor AS (
        SELECT visitor_id, sum(ms) AS ms, count(*) FILTER (WHERE ms > 0) AS seen FROM per_page GROUP BY visitor_id
      ), opened AS (
        SELECT DISTINCT visitor_id, file_id FROM link_visits WHERE share_id = ${shareId}
      ), doc_pages AS (
        SELECT o.file_id,
          greatest(CASE WHEN fv.mime LIKE 'image/%' THEN 1 ELSE coalesce(vp.page_count, 0) END,
                   (SELECT coalesce(max(p.page), 1) FROM link_visit_pages p WHERE p.share_id = ${shareId} AND p.file_id = o.file_id)) AS pages
        FROM (SELECT DISTINCT file_id FROM opened) o
        LEFT JOIN file_versions fv ON fv.id = o.file_id
        LEFT JOIN version_previews vp ON vp.version_id = o.file_id
      ), visitor_pages AS (
        SELECT o.visitor_id, sum(d.pages) AS pages FROM opened o JOIN doc_pages d ON d.file_id = o.file_id GROUP BY o.visitor_id
      ), visit_counts AS (
        SELECT visitor_id, count(*) AS visits FROM link_visits WHERE share_id = ${shareId} GROUP BY visitor_id
      )
      SELECT v.id, v.email, ${epochMs(sql`v.first_at`)} AS first_at, ${epochMs(sql`v.last_at`)} AS last_at,
        ${epochMs(sql`v.agreement_at`)} AS agreement_at, c.visits, p.ms, p.seen, vp.pages
      FROM link_visitors v
      LEFT JOIN visit_counts c ON c.visitor_id = v.id
      LEFT JOIN per_visitor p ON p.visitor_id = v.id
      LEFT JOIN visitor_pages vp ON vp.visitor_id = v.id
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
      downloads: 0,
      agreement_at: isoOf(r.agreement_at),
    };
  });
}
