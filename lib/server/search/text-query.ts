import "server-only";
import { or, sql, type SQL } from "drizzle-orm";

/** The text search configurations a version's text may be indexed with (version_texts.language). */
export const TEXT_LANGUAGES = ["simple", "english", "french", "german", "spanish", "italian", "portuguese"] as const;

/**
 * A search's words as PostgreSQL's web search syntax reads them: words are all required,
 * "quoted words" a phrase, -word excluded, `or` between two alternatives. Never an error,
 * whatever the text.
 */
export const webQuery = (config: string, text: string): SQL => sql`websearch_to_tsquery(${sql.raw(`'${config}'`)}, ${text})`;

/**
 * Rows of version_texts `t` whose text matches `text` in the row's own language: each language's
 * query is tested on the rows of that language only, so French stemming finds "contrats" from
 * "contrat" in a French text while a text in 'simple' keeps exact words. Every branch compares
 * the indexed column `t.tsv` with a constant query, so the GIN index serves each one (a BitmapOr).
 */
export function textMatches(text: string): SQL {
  return sql`(${or(...TEXT_LANGUAGES.map((language) => sql`(t.language = ${language} AND t.tsv @@ ${webQuery(language, text)})`))})`;
}
