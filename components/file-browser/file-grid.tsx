"use client";

import { useId, useRef, useState, type MouseEvent } from "react";
import { previewKind } from "@/components/file-preview/preview-kind";
import { useT } from "@/lib/i18n/provider";
import type { Item } from "@/lib/queries/files";
import styles from "./file-browser.module.css";
import grid from "./file-grid.module.css";
import type { FileListProps } from "./file-list";
import { itemKey } from "./format";
import { RowTags } from "@/components/tags/tag-chips";
import { CommentMarker, ItemIcon, LockMark, MoreIcon } from "./row-marks";
import { RowCheck, SelectAllBox, useRowDrag } from "./row-select";
import { useGridKeyboard } from "./use-grid-keyboard";
import { useKeepInView, useNearEnd, useScrollView } from "./use-scroll-window";

const TILE_WIDTH = 168;
const TILE_HEIGHT = 200;
const OVERSCAN = 2;

/**
 * The grid view: the same items, selection, keys, menu and drag and drop as the list, as tiles
 * with the server's thumbnails. Documents (PDF, office) sit on a page with an edge and a shadow,
 * so a white first page reads as a page on the white tile. Only the lines of tiles in view are
 * rendered. Each tile is a row of the ARIA grid (aria-activedescendant, as in the list).
 */
export function FileGrid(props: FileListProps) {
  const { items, total, selected, active } = props;
  const t = useT();
  const scroller = useRef<HTMLDivElement>(null);
  const keysId = useId();
  const { view, onScroll } = useScrollView(scroller);

  const columns = Math.max(1, Math.floor((view.width - 16) / TILE_WIDTH));
  const lines = Math.ceil(items.length / columns);
  const first = Math.max(0, Math.floor(view.top / TILE_HEIGHT) - OVERSCAN) * columns;
  const last = Math.min(items.length, (Math.ceil((view.top + view.height) / TILE_HEIGHT) + OVERSCAN) * columns);
  useNearEnd(last, items.length, props.onNearEnd);
  useKeepInView(scroller, active, { top: Math.floor(active / columns) * TILE_HEIGHT, size: TILE_HEIGHT, header: 0 });

  const dragProps = useRowDrag(props);
  const onKeyDown = useGridKeyboard({ ...props, scroller, columns, page: Math.max(1, Math.floor(view.height / TILE_HEIGHT)) * columns });

  function onTileClick(event: MouseEvent, index: number) {
    if (event.shiftKey) props.onSelect(index, event.ctrlKey || event.metaKey ? "rangeAdd" : "range");
    else if (event.ctrlKey || event.metaKey) props.onSelect(index, "toggle");
    else props.onSelect(index, "only");
  }

  function onMore(event: MouseEvent<HTMLButtonElement>, index: number, isSelected: boolean) {
    event.stopPropagation();
    if (!isSelected) props.onSelect(index, "only");
    const box = event.currentTarget.getBoundingClientRect();
    props.onMenu(box.right - 180, box.bottom + 4);
  }

  const activeId = active >= 0 && items[active] ? `tile-${itemKey(items[active])}` : undefined;
  return (
    <div className={grid.gridWrap}>
      <div className={grid.gridHead}>
        <SelectAllBox count={selected.size} total={items.length} onSelectAll={props.onSelectAll} onClear={props.onClear} />
        <span id={keysId} hidden>
          {t("files.gridKeys")}
        </span>
      </div>
      <div
        ref={scroller}
        className={`${styles.scroller} ${grid.tiles} ${grid.withDrops}`}
        role="grid"
        aria-label={props.label}
        aria-multiselectable="true"
        aria-rowcount={total}
        aria-activedescendant={activeId}
        aria-describedby={keysId}
        tabIndex={0}
        data-testid="file-grid"
        onKeyDown={onKeyDown}
        onScroll={onScroll}
        onFocus={(e) => {
          if (e.target === e.currentTarget && active < 0 && items.length > 0) props.onActive(Math.min(items.length - 1, Math.ceil(e.currentTarget.scrollTop / TILE_HEIGHT) * columns));
        }}
      >
        <div role="rowgroup" style={{ height: lines * TILE_HEIGHT + 8, position: "relative" }}>
          {items.slice(first, last).map((item, offset) => {
            const index = first + offset;
            const key = itemKey(item);
            const isSelected = selected.has(key);
            return (
              <div
                key={key}
                id={`tile-${key}`}
                role="row"
                data-index={index}
                aria-rowindex={index + 1}
                aria-selected={isSelected}
                className={[grid.tile, isSelected && styles.selected, index === active && styles.active].filter(Boolean).join(" ")}
                style={{ transform: `translate(${(index % columns) * TILE_WIDTH + 8}px, ${Math.floor(index / columns) * TILE_HEIGHT + 8}px)` }}
                onClick={(e) => onTileClick(e, index)}
                onDoubleClick={() => props.onOpen(item)}
                onContextMenu={(e) => {
                  e.preventDefault();
                  if (!isSelected) props.onSelect(index, "only");
                  props.onMenu(e.clientX, e.clientY);
                }}
                {...dragProps(item, index)}
              >
                <RowCheck item={item} index={index} isSelected={isSelected} onSelect={props.onSelect} />
                <span role="gridcell" className={grid.tileThumb}>
                  <TileThumb item={item} />
                  <span className={grid.tileMarks}>
                    <RowTags tags={props.tags?.get(`${item.kind}:${item.id}`)} />
                    <LockMark item={item} />
                  </span>
                </span>
                <span role="gridcell" className={grid.tileName} title={item.name}>
                  {item.name}
                  <CommentMarker counts={props.comments?.get(`${item.kind}:${item.id}`)} />
                </span>
                <span role="gridcell" className={grid.tileMore}>
                  <button type="button" tabIndex={-1} className={styles.moreButton} aria-label={t("files.more", { name: item.name })} aria-haspopup="menu" onClick={(e) => onMore(e, index, isSelected)}>
                    <MoreIcon />
                  </button>
                </span>
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

/** The server's thumbnail, large; documents on a page with an edge and a shadow; else the icon, large. */
function TileThumb({ item }: { item: Item }) {
  const [failed, setFailed] = useState(false);
  const kind = item.kind === "file" ? previewKind(item) : "none";
  if (item.kind === "file" && !failed && (kind === "image" || kind === "pdf" || kind === "office" || kind === "video")) {
    const isPage = kind === "pdf" || kind === "office";
    return (
      <span className={isPage ? grid.page : grid.picture}>
        {/* eslint-disable-next-line @next/next/no-img-element -- the server's thumbnail, already sized and cached */}
        <img src={`/api/mixer/${item.id}`} alt="" loading="lazy" decoding="async" onError={() => setFailed(true)} />
      </span>
    );
  }
  return (
    <span className={grid.bigIcon}>
      <ItemIcon item={item} />
    </span>
  );
}
