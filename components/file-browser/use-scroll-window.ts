"use client";

import { useEffect, useState, type RefObject, type UIEvent } from "react";

/** What the list or grid shows of its scroller: where it is scrolled, how tall and wide it is. */
export type ScrollView = { top: number; height: number; width: number };

/**
 * The scroller's visible box, measured at mount and on resize; `onScroll` keeps it as the user
 * scrolls. The list and the grid render only the items inside it.
 */
export function useScrollView(scroller: RefObject<HTMLDivElement | null>) {
  const [view, setView] = useState<ScrollView>({ top: 0, height: 600, width: 800 });
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const measure = () => setView({ top: el.scrollTop, height: el.clientHeight, width: el.clientWidth });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [scroller]);
  const onScroll = (event: UIEvent<HTMLDivElement>) => {
    const { scrollTop, clientHeight } = event.currentTarget;
    setView((v) => ({ ...v, top: scrollTop, height: clientHeight }));
  };
  return { view, onScroll };
}

/** The next page is asked for when the rendered window comes within 20 items of the loaded end. */
export function useNearEnd(last: number, count: number, onNearEnd: () => void) {
  useEffect(() => {
    if (last >= count - 20) onNearEnd();
  }, [last, count, onNearEnd]);
}

/**
 * The active item stays in view as the keyboard moves it: its band (`top`, `size` px) is scrolled
 * to, with `header` px of sticky header above the items.
 */
export function useKeepInView(scroller: RefObject<HTMLDivElement | null>, active: number, band: { top: number; size: number; header: number }) {
  const { top, size, header } = band;
  useEffect(() => {
    const el = scroller.current;
    if (!el || active < 0) return;
    if (top < el.scrollTop) el.scrollTo({ top });
    else if (top + size + header > el.scrollTop + el.clientHeight) el.scrollTo({ top: top + size + header - el.clientHeight });
  }, [scroller, active, top, size, header]);
}
