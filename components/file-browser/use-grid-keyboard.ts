"use client";

import type { KeyboardEvent, RefObject } from "react";
import type { Item } from "@/lib/queries/files";
import type { SelectMode } from "./use-selection";

type GridKeys = {
  items: Item[];
  active: number;
  /** The grid's scrolling box, whose rows carry `data-index`. */
  scroller: RefObject<HTMLDivElement | null>;
  /** How many rows PageUp and PageDown move. */
  page: number;
  /** Tiles per line in the grid view: Up and Down move by a line, Left and Right by a tile. */
  columns?: number;
  onSelect: (index: number, mode: SelectMode) => void;
  onActive: (index: number) => void;
  onSelectAll: () => void;
  onClear: () => void;
  onOpen: (item: Item) => void;
  onMenu: (x: number, y: number) => void;
  onDelete: () => void;
  onRename: () => void;
};

/**
 * The grid's keys, as a file manager's: arrows (all four in the grid view), pages, Home and End move the active row (Shift
 * extends the selection, Ctrl moves alone), Space toggles, Enter opens, Delete, F2 renames,
 * Escape clears, Ctrl+A selects all, the menu key or Shift+F10 opens the menu at the active row.
 */
export function useGridKeyboard(props: GridKeys) {
  const { items, active, scroller, page, columns = 1 } = props;

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.target !== event.currentTarget) return;
    const ctrl = event.ctrlKey || event.metaKey;
    const move = (to: number) => {
      event.preventDefault();
      const index = Math.max(0, Math.min(items.length - 1, to));
      if (event.shiftKey) props.onSelect(index, "range");
      else if (ctrl) props.onActive(index);
      else props.onSelect(index, "only");
    };
    switch (event.key) {
      case "ArrowDown":
        return move(active + columns);
      case "ArrowUp":
        return move(active < 0 ? 0 : active - columns);
      case "ArrowRight":
      case "ArrowLeft":
        if (columns === 1) return;
        return move(active + (event.key === "ArrowRight" ? 1 : -1));
      case "PageDown":
        return move(active + page);
      case "PageUp":
        return move(active - page);
      case "Home":
        return move(0);
      case "End":
        return move(items.length - 1);
      case " ":
        event.preventDefault();
        if (active >= 0) props.onSelect(active, "toggle");
        return;
      case "Enter":
        event.preventDefault();
        if (active >= 0 && items[active]) props.onOpen(items[active]);
        return;
      case "Delete":
        event.preventDefault();
        return props.onDelete();
      case "F2":
        event.preventDefault();
        return props.onRename();
      case "Escape":
        return props.onClear();
      case "ContextMenu":
        event.preventDefault();
        return openMenuAtActive();
    }
    if (event.key === "F10" && event.shiftKey) {
      event.preventDefault();
      openMenuAtActive();
    } else if (ctrl && event.key.toLowerCase() === "a") {
      event.preventDefault();
      props.onSelectAll();
    }
  }

  function openMenuAtActive() {
    const row = scroller.current?.querySelector<HTMLElement>(`[data-index="${Math.max(0, active)}"]`);
    const box = row?.getBoundingClientRect();
    if (active < 0 && items.length > 0) props.onSelect(0, "only");
    if (box) props.onMenu(box.left + 48, box.bottom);
  }

  return onKeyDown;
}
