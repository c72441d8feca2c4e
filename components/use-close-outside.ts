"use client";

import { useEffect, type RefObject } from "react";

/** While `open`, a pointer pressed outside `ref`'s element calls `close` (menus and popovers). */
export function useCloseOutside(ref: RefObject<HTMLElement | null>, open: boolean, close: () => void, onOpen?: () => void) {
  useEffect(() => {
    if (!open) return;
    onOpen?.();
    const onPointer = (event: PointerEvent) => {
      if (!ref.current?.contains(event.target as Node)) close();
    };
    document.addEventListener("pointerdown", onPointer);
    return () => document.removeEventListener("pointerdown", onPointer);
    // `close` and `onOpen` are read when the menu opens; callers pass fresh closures each render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, ref]);
}
