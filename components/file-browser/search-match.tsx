"use client";

import type { ReactNode } from "react";
import { useT } from "@/lib/i18n/provider";
import type { Item } from "@/lib/queries/files";
import styles from "./file-browser.module.css";

type ContentMatch = NonNullable<(Item & { kind: "file" })["content_match"]>;

/**
 * The second line of a search result: where it is (path_name), then for a file found by its
 * content the page and the snippet, its matched words marked. The snippet is the document's own
 * text, so it only ever becomes text nodes; <mark> elements come from the offsets alone.
 */
export function SearchMatch({ item }: { item: Item }) {
  const t = useT();
  const match = item.kind === "file" ? item.content_match : undefined;
  if (!item.path_name && !match) return null;
  return (
    <span className={styles.matchLine}>
      <span className={styles.matchWhere}>
        {item.path_name && (
          <span className={styles.matchPath} title={t("search.matchIn", { path: item.path_name })}>
            {item.path_name}
          </span>
        )}
        {match?.page != null && <span className={styles.matchPage}>{t("search.page", { page: match.page })}</span>}
      </span>
      {match && <Snippet match={match} />}
    </span>
  );
}

function Snippet({ match }: { match: ContentMatch }) {
  const { snippet } = match;
  const parts: ReactNode[] = [];
  let at = 0;
  // Offsets from the server are trusted for nothing: ordered, inside the text, not overlapping.
  const ranges = [...match.highlights].sort((a, b) => a[0] - b[0]);
  for (const [start, end] of ranges) {
    if (!Number.isInteger(start) || !Number.isInteger(end) || start < at || end <= start || end > snippet.length) continue;
    if (start > at) parts.push(snippet.slice(at, start));
    parts.push(<mark key={start}>{snippet.slice(start, end)}</mark>);
    at = end;
  }
  if (at < snippet.length) parts.push(snippet.slice(at));
  return (
    <bdi className={styles.snippet} data-testid="search-snippet">
      {parts}
    </bdi>
  );
}
