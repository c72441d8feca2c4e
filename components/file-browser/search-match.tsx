"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Fragment, type ReactNode } from "react";
import { useT } from "@/lib/i18n/provider";
import { rootsQuery, type Item } from "@/lib/queries/files";
import styles from "./file-browser.module.css";

type ContentMatch = NonNullable<(Item & { kind: "file" })["content_match"]>;

/**
 * The second line of a search result: where it is (path_crumbs, each folder a link that opens it;
 * path_name as text when the answer has no crumbs), then for a file found by its content the page
 * and the snippet, its matched words marked. The snippet is the document's own
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
            {item.path_crumbs?.length ? <PathLinks crumbs={item.path_crumbs} /> : item.path_name}
          </span>
        )}
        {match?.page != null && <span className={styles.matchPage}>{t("search.page", { page: match.page })}</span>}
      </span>
      {match && <Snippet match={match} />}
    </span>
  );
}

/** The folders above a result, each a link to the folder (the private root reads "My files"). */
function PathLinks({ crumbs }: { crumbs: { id: number; name: string }[] }) {
  const t = useT();
  const privateRootId = useQuery(rootsQuery()).data?.find((r) => r.type === "private")?.id;
  return (
    <nav aria-label={t("search.resultPath")} className={styles.matchCrumbs}>
      {crumbs.map((c) => (
        <Fragment key={c.id}>
          <span aria-hidden="true">/</span>
          {/* The row selects on click: the link still opens the folder, without selecting first. */}
          <Link href={c.id === privateRootId ? "/files" : `/files/${c.id}`} tabIndex={-1} onClick={(e) => e.stopPropagation()} onDoubleClick={(e) => e.stopPropagation()}>
            {c.id === privateRootId ? t("nav.myFiles") : c.name}
          </Link>
        </Fragment>
      ))}
    </nav>
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
