"use client";

import { useMemo, useRef, useState } from "react";
import type { Item } from "@/lib/queries/files";
import { itemKey } from "./format";

/** How a click or a key changes the selection: only this row, toggle it, or the range from the anchor (replacing or adding). */
export type SelectMode = "only" | "toggle" | "range" | "rangeAdd";

/** The selected rows (by item key, so they survive a re-sort) and the active row the keyboard moves. */
export function useSelection(items: Item[]) {
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [active, setActive] = useState(-1);
  const anchor = useRef(0);
  const selectedItems = useMemo(() => items.filter((i) => selected.has(itemKey(i))), [items, selected]);

  function select(index: number, mode: SelectMode) {
    const item = items[index];
    if (!item) return;
    const key = itemKey(item);
    setActive(index);
    if (mode === "only" || mode === "toggle") anchor.current = index;
    if (mode === "only") return setSelected(new Set([key]));
    if (mode === "toggle")
      return setSelected((previous) => {
        const next = new Set(previous);
        if (!next.delete(key)) next.add(key);
        return next;
      });
    const [from, to] = [Math.min(anchor.current, index), Math.max(anchor.current, index)];
    const range = items.slice(from, to + 1).map(itemKey);
    setSelected((previous) => new Set(mode === "rangeAdd" ? [...previous, ...range] : range));
  }

  const selectAll = () => setSelected(new Set(items.map(itemKey)));
  const clear = () => setSelected(new Set());
  /** Items gone (deleted, archived) leave the selection; what was selected since stays selected. */
  const forget = (gone: Item[]) =>
    setSelected((previous) => {
      const next = new Set(previous);
      for (const item of gone) next.delete(itemKey(item));
      return next.size === previous.size ? previous : next;
    });
  return { selected, selectedItems, active, setActive, select, selectAll, clear, forget };
}

export type Selection = ReturnType<typeof useSelection>;
