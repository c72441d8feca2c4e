import "server-only";
import { sql } from "drizzle-orm";
import { rows, type DbOrTx } from "@/db";
import { idArray } from "../folders/id-array";
import { MARK_END, MARK_START, snippetOf, type Snippet } from "./snippet";
import { webQuery, webTextMatches } from "./text-query";

/** What a file found by its content carries in search results (api.md, `content_match`). */
export type ContentMatch = Snippet & { page: number | null };

/** Snippets are made for this many files of one answer at most (the first ones, in its order). */
export const SNIPPET_FILES = 50;
/** A headline reads this many characters at most: of the matching page, or of the text. */
const HEADLINE_WINDOW = 100_000;
const HEADLINE_OPTIONS = `StartSel=${MARK_START}, StopSel=${MARK_END}, MaxWords=30, MinWords=12, ShortWord=2`;

/**
 * The match of `text` in the text of each of these versions that it matches, for search results:
 * a snippet around it and, for a paged text (PDF, scan, presentation: pages separated by '\f'),
 * the 1-based number of the first page that matches on its own (null when no page does, a phrase
 * running over a page break; 1 for a PDF or a scan of one page; null for other texts without
 * pages). Bounded: SNIPPET_FILES versions; a headline reads HEADLINE_WINDOW characters of the page
 * or text, the page search the first million characters, as the index does.
 */
export async function loadContentMatches(db: DbOrTx, versionIds: number[], text: string): Promise<Map<number, ContentMatch>> {
  const ids = versionIds.slice(0, SNIPPET_FILES);
  // Headlines cost about a millisecond a text: two halves on two connections (PostgreSQL runs them side by side).
  const half = Math.ceil(ids.length / 2);
  const parts = await Promise.all([ids.slice(0, half), ids.slice(half)].filter((part) => part.length > 0).map((part) => matchesOf(db, part, text)));
  return new Map(parts.flat());
}

async function matchesOf(db: DbOrTx, ids: number[], text: string): Promise<[number, ContentMatch][]> {
  const config = sql`t.language::regconfig`;
  const query = webQuery(config, text);
  const found = rows<{ version_id: number; page: number | null; headline: string }>(
    await db.execute(sql`
      SELECT t.version_id,
        -- A PDF or a scan without a page break has one page.
        CASE WHEN p.n IS NULL AND strpos(t.content, chr(12)) = 0 AND (v.mime = 'application/pdf' OR v.mime LIKE 'image/%') THEN 1 ELSE p.n END AS page,
        ts_headline(${config}, translate(left(coalesce(p.txt, t.content), ${HEADLINE_WINDOW}), ${MARK_START + MARK_END}, '  '), ${query}, ${HEADLINE_OPTIONS}) AS headline
      FROM version_texts t
      JOIN file_versions v ON v.id = t.version_id
      LEFT JOIN LATERAL (
        -- The first page matching alone: pages come out of unnest in order and LIMIT stops at the first.
        SELECT pg.n, pg.txt FROM unnest(string_to_array(left(t.content, 1000000), chr(12))) WITH ORDINALITY AS pg(txt, n)
        WHERE strpos(t.content, chr(12)) > 0 AND to_tsvector(${config}, pg.txt) @@ ${query}
        LIMIT 1
      ) p ON true
      WHERE t.version_id = ANY(${idArray(ids)}) AND ${webTextMatches(text)}`),
  );
  return found.map((r) => [Number(r.version_id), { ...snippetOf(r.headline), page: r.page === null ? null : Number(r.page) }]);
}
