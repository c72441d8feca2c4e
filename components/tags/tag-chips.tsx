"use client";

import type { CSSProperties } from "react";
import { useT } from "@/lib/i18n/provider";
import type { TagResponse } from "@/lib/queries/tags";
import styles from "./tags.module.css";

/** `#rrggbb` moved `share` of the way to white (chip backgrounds stay light, so text keeps its contrast). */
export function lighten(hex: string, share: number): string {
  if (!/^#[0-9a-f]{6}$/i.test(hex)) return hex;
  const channel = (i: number) => {
    const value = parseInt(hex.slice(1 + i * 2, 3 + i * 2), 16);
    return Math.round(value + (255 - value) * share)
      .toString(16)
      .padStart(2, "0");
  };
  return `#${channel(0)}${channel(1)}${channel(2)}`;
}

export const chipStyle = (tag: Pick<TagResponse, "color">) =>
  ({ "--chip-color": tag.color, "--chip-bg": lighten(tag.color, 0.88), "--chip-border": lighten(tag.color, 0.5) }) as CSSProperties;

/** One tag: its colour as a dot, its name, and a remove button when `onRemove` is given. */
export function TagChip({ tag, onRemove, disabled }: { tag: TagResponse; onRemove?: () => void; disabled?: boolean }) {
  const t = useT();
  const label = tag.private ? t("tags.privateChip", { name: tag.name }) : tag.name;
  return (
    <span className={styles.chip} style={chipStyle(tag)} title={label} data-testid="tag-chip">
      <span className={styles.dot} aria-hidden="true" />
      <span className={styles.chipName}>{tag.name}</span>
      {tag.private && (
        <svg className={styles.lock} width="10" height="10" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.4" role="img" aria-label={t("tags.private")}>
          <rect x="5" y="11" width="14" height="10" rx="2" />
          <path d="M8 11V8a4 4 0 0 1 8 0v3" />
        </svg>
      )}
      {onRemove && (
        <button type="button" className={styles.remove} onClick={onRemove} disabled={disabled} aria-label={t("tags.remove", { name: tag.name })}>
          ×
        </button>
      )}
    </span>
  );
}

/** The tags of a row of the file list, on one line; the rest is counted. */
export function RowTags({ tags }: { tags?: TagResponse[] }) {
  const t = useT();
  if (!tags?.length) return null;
  const shown = tags.slice(0, 3);
  return (
    <span className={`${styles.chips} ${styles.inline}`} aria-label={t("tags.rowLabel", { names: tags.map((tag) => tag.name).join(", ") })} role="group">
      {shown.map((tag) => (
        <TagChip key={tag.id} tag={tag} />
      ))}
      {tags.length > shown.length && <span className={styles.chip}>+{tags.length - shown.length}</span>}
    </span>
  );
}
