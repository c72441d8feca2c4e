import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { textMatches } from "../texts/text-query";

/**
 * A search's words as PostgreSQL's web search syntax reads them: words are all required,
 * "quoted words" a phrase, -word excluded, `or` between two alternatives. Never an error,
 * whatever the text.
 */
export const webQuery = (configuration: SQL, text: string): SQL => sql`websearch_to_tsquery(${configuration}, ${text})`;

/** Rows of version_texts `t` whose text matches `text` (web search syntax) in the row's own language. */
export const webTextMatches = (text: string): SQL => textMatches(text, webQuery);
