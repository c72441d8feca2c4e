import type { Translate } from "@/lib/i18n/translate";
import styles from "./api-docs.module.css";

const TOPICS = [
  ["apiDocs.guide.authTitle", "apiDocs.guide.auth"],
  ["apiDocs.guide.asIdTitle", "apiDocs.guide.asId"],
  ["apiDocs.guide.listsTitle", "apiDocs.guide.lists"],
  ["apiDocs.guide.errorsTitle", "apiDocs.guide.errors"],
  ["apiDocs.guide.uploadsTitle", "apiDocs.guide.uploads"],
] as const;

/** What every caller needs before the reference below (issue 27, item 6): authentication, AsId, paging, errors, uploads. */
export function ApiGuide({ t }: { t: Translate }) {
  return (
    <section className={styles.guide} aria-labelledby="api-guide">
      <h2 id="api-guide">{t("apiDocs.guide.title")}</h2>
      <div className={styles.topics}>
        {TOPICS.map(([title, text]) => (
          <div key={title} className={styles.topic}>
            <h3>{t(title)}</h3>
            <p>{t(text)}</p>
          </div>
        ))}
      </div>
    </section>
  );
}
