"use client";

import { useEffect, useRef, type DragEvent, type MouseEvent } from "react";
import { useT } from "@/lib/i18n/provider";
import type { Item } from "@/lib/queries/files";
import styles from "./file-browser.module.css";
import grid from "./file-grid.module.css";
import { itemKey } from "./format";
import { canTakeOut, startDrag, useDropMove } from "./use-drag-move";
import type { SelectMode } from "./use-selection";

type RowProps = { items: Item[]; selected: Set<string>; onSelect: (index: number, mode: SelectMode) => void };

/**
 * A row's checkbox (list and grid): a click or a tap adds the row to the selection or takes it
 * out, Shift+click adds the range from the last one picked. The whole cell is the target, so a
 * finger finds it. Out of the Tab order: the grid's Space does the same from the keyboard.
 */
export function RowCheck({ item, index, isSelected, onSelect }: { item: Item; index: number; isSelected: boolean; onSelect: RowProps["onSelect"] }) {
  const t = useT();
  return (
    <span
      role="gridcell"
      className={`${styles.colCheck} ${grid.checkCell}`}
      onClick={(e: MouseEvent) => {
        e.stopPropagation();
        onSelect(index, e.shiftKey ? "rangeAdd" : "toggle");
      }}
      onDoubleClick={(e) => e.stopPropagation()}
    >
      <input type="checkbox" tabIndex={-1} className={grid.checkbox} checked={isSelected} readOnly aria-label={t("files.selectRow", { name: item.name })} />
    </span>
  );
}

/** Select all: checked when every loaded row is, indeterminate when some are. */
export function SelectAllBox({ count, total, onSelectAll, onClear }: { count: number; total: number; onSelectAll: () => void; onClear: () => void }) {
  const t = useT();
  const ref = useRef<HTMLInputElement>(null);
  const all = total > 0 && count >= total;
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = count > 0 && !all;
  }, [count, all]);
  return <input ref={ref} type="checkbox" className={grid.checkbox} checked={all} onChange={() => (all ? onClear() : onSelectAll())} aria-label={t("files.selectAll")} />;
}

/**
 * What makes a row draggable (the selection when the row is in it, else the row alone) and, for a
 * folder, a place to drop rows on (use-drag-move.ts).
 */
export function useRowDrag({ items, selected, onSelect }: RowProps) {
  const dropProps = useDropMove();
  return (item: Item, index: number) => {
    const isSelected = selected.has(itemKey(item));
    return {
      draggable: canTakeOut(item),
      onDragStart(event: DragEvent) {
        if (!isSelected) onSelect(index, "only");
        startDrag(event, isSelected ? items.filter((i) => selected.has(itemKey(i))) : [item]);
      },
      ...(item.kind === "folder" && item.can_write ? dropProps({ id: item.id, name: item.name }) : {}),
    };
  };
}
