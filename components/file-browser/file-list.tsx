"use client";

import Link from "next/link";
import { useId, useRef, type MouseEvent, type ReactNode } from "react";
import { useLanguage, useT } from "@/lib/i18n/provider";
import { htmlLang } from "@/lib/i18n/languages";
import type { MessageKey } from "@/lib/i18n/translate";
import type { Item } from "@/lib/queries/files";
import type { TagResponse } from "@/lib/queries/tags";
import { RowTags } from "@/components/tags/tag-chips";
import styles from "./file-browser.module.css";
import grid from "./file-grid.module.css";
import { formatBytes, formatDate, formatDay, itemKey } from "./format";
import { CommentMarker, ItemIcon, LockMark, MoreIcon } from "./row-marks";
import { RowCheck, SelectAllBox, useRowDrag } from "./row-select";
import { useGridKeyboard } from "./use-grid-keyboard";
import { useKeepInView, useNearEnd, useScrollView } from "./use-scroll-window";
import type { SelectMode } from "./use-selection";

export type SortColumn = "name" | "size" | "modification" | "owner";
export type Sort = { column: SortColumn; direction: 1 | -1 };

/** Row height in px: fixed, so the visible window is computed from the scroll position alone. */
const SHORT_ROW = 44;
/** With the lines under the names: where (path, page) and two lines of snippet. */
const TALL_ROW = 92;
const OVERSCAN = 8;

export type FileListProps = {
  label: string;
  items: Item[];
  total: number;
  selected: Set<string>;
  active: number;
  sort: Sort;
  onSort: (column: SortColumn) => void;
  /** A click or key on row `index`: mode says how it changes the selection. */
  onSelect: (index: number, mode: SelectMode) => void;
  onActive: (index: number) => void;
  onSelectAll: () => void;
  onClear: () => void;
  onOpen: (item: Item) => void;
  /** Comment counts by "kind:id" (rows without comments are absent). */
  comments?: Map<string, { total: number; unread: number }>;
  /** Tags by "kind:id" (rows without tags are absent). */
  tags?: Map<string, TagResponse[]>;
  onMenu: (x: number, y: number) => void;
  onDelete: () => void;
  onRename: () => void;
  onNearEnd: () => void;
  hrefOf: (item: Item) => string | undefined;
  /** A second line under each name (search results: path and snippet); rows are then taller. */
  detailOf?: (item: Item) => ReactNode;
};

const COLUMNS: { column: SortColumn; label: MessageKey; className: string }[] = [
  { column: "name", label: "files.colName", className: styles.colName },
  { column: "size", label: "files.colSize", className: styles.colSize },
  { column: "modification", label: "files.colModified", className: styles.colModified },
  { column: "owner", label: "files.colOwner", className: styles.colOwner },
];

/**
 * The folder's items as an ARIA grid with one focus stop (aria-activedescendant). Only the rows in
 * view are rendered, so a folder of 10,000 items costs the same as one of 50.
 */
export function FileList(props: FileListProps) {
  const { items, total, selected, active, sort, detailOf } = props;
  const rowHeight = detailOf ? TALL_ROW : SHORT_ROW;
  const t = useT();
  const locale = htmlLang(useLanguage());
  const scroller = useRef<HTMLDivElement>(null);
  const keysId = useId();
  const { view, onScroll } = useScrollView(scroller);

  const first = Math.max(0, Math.floor(view.top / rowHeight) - OVERSCAN);
  const last = Math.min(items.length, Math.ceil((view.top + view.height) / rowHeight) + OVERSCAN);
  useNearEnd(last, items.length, props.onNearEnd);
  useKeepInView(scroller, active, { top: active * rowHeight, size: rowHeight, header: SHORT_ROW });

  const dragProps = useRowDrag(props);
  const onKeyDown = useGridKeyboard({ ...props, scroller, page: Math.max(1, Math.floor(view.height / rowHeight) - 1) });

  function onRowClick(event: MouseEvent, index: number) {
    if (event.shiftKey) props.onSelect(index, event.ctrlKey || event.metaKey ? "rangeAdd" : "range");
    else if (event.ctrlKey || event.metaKey) props.onSelect(index, "toggle");
    else props.onSelect(index, "only");
  }

  function onRowMenu(event: MouseEvent, index: number) {
    event.preventDefault();
    if (!selected.has(itemKey(items[index]))) props.onSelect(index, "only");
    else props.onActive(index);
    props.onMenu(event.clientX, event.clientY);
  }

  const activeId = active >= 0 && items[active] ? `row-${itemKey(items[active])}` : undefined;
  return (
    <div
      ref={scroller}
      className={`${styles.scroller} ${grid.withDrops}`}
      role="grid"
      aria-label={props.label}
      aria-multiselectable="true"
      aria-rowcount={total + 1}
      aria-activedescendant={activeId}
      aria-describedby={keysId}
      tabIndex={0}
      onKeyDown={onKeyDown}
      onScroll={onScroll}
      onFocus={(e) => {
        // The grid itself taking focus (Tab, or a click on a row) starts on the first row in view: row 0
        // would scroll the list to its top under the pointer, and the click would land on another row.
        // A focused button inside a row (its "⋯") bubbles here too, and must not move anything.
        if (e.target === e.currentTarget && active < 0 && items.length > 0) props.onActive(Math.min(items.length - 1, Math.ceil(e.currentTarget.scrollTop / rowHeight)));
      }}
    >
      {/* Hidden, so outside the grid's structure; what the grid's description reads. */}
      <span id={keysId} hidden>
        {t("files.gridKeys")}
      </span>
      <div role="row" aria-rowindex={1} className={`${styles.row} ${styles.headerRow}`}>
        <span role="columnheader" className={styles.colCheck}>
          <SelectAllBox count={selected.size} total={items.length} onSelectAll={props.onSelectAll} onClear={props.onClear} />
        </span>
        {COLUMNS.map(({ column, label, className }) => (
          <span
            key={column}
            role="columnheader"
            className={className}
            aria-sort={sort.column === column ? (sort.direction === 1 ? "ascending" : "descending") : undefined}
          >
            <button type="button" className={styles.sortButton} onClick={() => props.onSort(column)} aria-label={t("files.sortBy", { column: t(label) })}>
              {t(label)}
              {sort.column === column && <span aria-hidden="true">{sort.direction === 1 ? " ↑" : " ↓"}</span>}
            </button>
          </span>
        ))}
        <span role="columnheader" className={styles.colMore} />
      </div>
      <div role="rowgroup" style={{ height: items.length * rowHeight, position: "relative" }}>
        {items.slice(first, last).map((item, offset) => {
          const index = first + offset;
          const key = itemKey(item);
          const isSelected = selected.has(key);
          const href = props.hrefOf(item);
          const nameParts = (
            <>
              {href ? (
                <Link href={href} tabIndex={-1} className={styles.name} onClick={(e) => (e.ctrlKey || e.metaKey || e.shiftKey) && e.preventDefault()}>
                  {item.name}
                </Link>
              ) : (
                <span className={styles.name}>{item.name}</span>
              )}
              <CommentMarker counts={props.comments?.get(`${item.kind}:${item.id}`)} />
              <RowTags tags={props.tags?.get(`${item.kind}:${item.id}`)} />
              <LockMark item={item} />
            </>
          );
          return (
            <div
              key={key}
              id={`row-${key}`}
              role="row"
              data-index={index}
              aria-rowindex={index + 2}
              aria-selected={isSelected}
              className={[styles.row, styles.itemRow, isSelected && styles.selected, index === active && styles.active].filter(Boolean).join(" ")}
              style={{ transform: `translateY(${index * rowHeight}px)`, height: rowHeight }}
              onClick={(e) => onRowClick(e, index)}
              onDoubleClick={() => props.onOpen(item)}
              onContextMenu={(e) => onRowMenu(e, index)}
              {...dragProps(item, index)}
            >
              <RowCheck item={item} index={index} isSelected={isSelected} onSelect={props.onSelect} />
              <span role="gridcell" className={styles.colName}>
                <ItemIcon item={item} />
                {detailOf ? (
                  <span className={styles.nameStack}>
                    <span className={styles.nameLine}>{nameParts}</span>
                    {detailOf(item)}
                  </span>
                ) : (
                  nameParts
                )}
              </span>
              <span role="gridcell" className={styles.colSize}>
                {item.kind === "file" ? formatBytes(item.size, locale) : typeof item.size === "number" ? formatBytes(item.size, locale) : "—"}
              </span>
              <span role="gridcell" className={styles.colModified}>
                <span className={styles.dateLong}>{formatDate(item.modification, locale)}</span>
                <span className={styles.dateShort}>{formatDay(item.modification, locale)}</span>
              </span>
              <span role="gridcell" className={styles.colOwner}>
                {item.owner ?? ""}
              </span>
              <span role="gridcell" className={styles.colMore}>
                <button
                  type="button"
                  tabIndex={-1}
                  className={styles.moreButton}
                  aria-label={t("files.more", { name: item.name })}
                  aria-haspopup="menu"
                  onClick={(e) => {
                    e.stopPropagation();
                    if (!isSelected) props.onSelect(index, "only");
                    const box = e.currentTarget.getBoundingClientRect();
                    props.onMenu(box.right - 180, box.bottom + 4);
                  }}
                >
                  <MoreIcon />
                </button>
              </span>
            </div>
          );
        })}
      </div>
    </div>
  );
}
