import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { TEXT_LANGUAGES, type TextLanguage } from "@/db/schema";

/**
 * The condition "this text (alias t of version_texts) matches the words", each text in its own
 * language: the words become a query of every configuration, and a text is matched by the one
 * of its language, so French stemming finds "contrat" from "contrats" in a French text only. An
 * OR of one GIN condition per configuration: each served by version_texts_tsv_idx.
 * `toQuery` makes the tsquery of a configuration (plainto_tsquery by default).
 */
export function textMatches(words: string, toQuery: (configuration: SQL, words: string) => SQL = (c, w) => sql`plainto_tsquery(${c}, ${w})`): SQL {
  const byLanguage = TEXT_LANGUAGES.map((language: TextLanguage) => {
    const configuration = sql.raw(`'${language}'::regconfig`);
    return sql`(t.language = ${language} AND t.tsv @@ ${toQuery(configuration, words)})`;
  });
  return sql`(${sql.join(byLanguage, sql` OR `)})`;
}
