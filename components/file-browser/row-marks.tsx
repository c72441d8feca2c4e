"use client";

import { useState } from "react";
import { previewKind } from "@/components/file-preview/preview-kind";
import { useT } from "@/lib/i18n/provider";
import type { FileResponse, Item } from "@/lib/queries/files";
import styles from "./file-browser.module.css";

/** 💬 and the number of comments; stronger, and said, when some are unread. */
export function CommentMarker({ counts }: { counts?: { total: number; unread: number } }) {
  const t = useT();
  if (!counts) return null;
  const label = counts.unread > 0 ? t("files.commentsUnread", { count: counts.total, unread: counts.unread }) : t("files.comments", { count: counts.total });
  return (
    <span className={[styles.comments, counts.unread > 0 && styles.unread].filter(Boolean).join(" ")} role="img" aria-label={label} title={label} data-testid="comment-marker">
      <svg width="14" height="14" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
        <path d="M4 5h16v11H9l-5 4z" />
      </svg>
      {counts.total}
    </span>
  );
}

/** A locked file's padlock, the holder in its name and title (the list's row and the grid's tile). */
export function LockMark({ item }: { item: Item }) {
  const t = useT();
  if (item.kind !== "file" || !item.lock?.locked) return null;
  const label = t("files.locked", { owner: item.lock.owner ?? "" });
  return (
    <span className={styles.lock} role="img" aria-label={label} title={label}>
      <svg width="14" height="14" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
        <rect x="5" y="11" width="14" height="10" rx="2" />
        <path d="M8 11V8a4 4 0 0 1 8 0v3" />
      </svg>
    </span>
  );
}

export function ItemIcon({ item }: { item: Item }) {
  if (item.kind === "folder") {
    return (
      <svg className={styles.folderIcon} width="20" height="20" viewBox="0 0 24 24" aria-hidden="true">
        <path d="M3 6.5A1.5 1.5 0 0 1 4.5 5h4.6l2 2h8.4A1.5 1.5 0 0 1 21 8.5v9a1.5 1.5 0 0 1-1.5 1.5h-15A1.5 1.5 0 0 1 3 17.5z" fill="currentColor" />
      </svg>
    );
  }
  return <FileIcon item={item} />;
}

/**
 * A file's thumbnail where the server makes one (images, PDFs, office documents, videos), else the generic icon. The
 * thumbnail loads lazily, so only the rows on screen ask for theirs; a file without one (415,
 * 404) keeps the icon.
 */
function FileIcon({ item }: { item: FileResponse }) {
  const [failed, setFailed] = useState(false);
  const kind = previewKind(item);
  if (!failed && (kind === "image" || kind === "pdf" || kind === "office" || kind === "video")) {
    // eslint-disable-next-line @next/next/no-img-element -- a small server-made thumbnail, already sized and cached
    return <img className={styles.thumb} src={`/api/mixer/${item.id}`} alt="" width={24} height={24} loading="lazy" decoding="async" onError={() => setFailed(true)} />;
  }
  return (
    <svg className={styles.fileIcon} width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinejoin="round" aria-hidden="true">
      <path d="M6 3h8l4 4v14H6z" />
      <path d="M14 3v4h4" />
    </svg>
  );
}

/** The "⋯" of a row's or a tile's menu button. */
export function MoreIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true">
      <circle cx="3" cy="8" r="1.5" fill="currentColor" />
      <circle cx="8" cy="8" r="1.5" fill="currentColor" />
      <circle cx="13" cy="8" r="1.5" fill="currentColor" />
    </svg>
  );
}
