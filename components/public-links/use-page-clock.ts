"use client";

import { useEffect, useState, type RefObject } from "react";
import { ApiError } from "@/lib/api-client";
import { createPageClock, mostVisiblePage, type PageClock } from "@/lib/engagement/page-clock";
import { beaconPageTimes, sendPageTimes } from "@/lib/queries/share-viewer";

/** Page times are sent every 10 s while the viewer is open, and at once when the page goes away. */
const FLUSH_MS = 10_000;
const THRESHOLDS = [0, 0.1, 0.25, 0.5, 0.75, 0.9, 1];
const INPUTS = ["pointerdown", "pointermove", "keydown", "wheel", "touchstart"] as const;

type Visit = { linkKey: string; visitId: number };

/**
 * The DOM around the honest clock (lib/engagement/page-clock.ts): which page of `pane` is the most
 * visible (IntersectionObserver on its `[data-page]` children), whether the tab is visible (Page
 * Visibility), the reader's inputs; the time goes to the visit every 10 s and as the viewer closes
 * (fetch with keepalive), and by beacon when the tab is hidden or the page left. Time read before
 * the visit is open waits for it. Answers the page on screen and the last refusal of the server.
 */
export function usePageClock(pane: RefObject<HTMLElement | null>, pageCount: number, visit: Visit | null): { page: number | null; error: ApiError | null } {
  const [page, setPage] = useState<number | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [recorder] = useState(() => pageRecorder(setError));

  // The page on screen.
  useEffect(() => {
    const root = pane.current;
    if (!root || pageCount === 0) return;
    const ratios = new Map<number, number>();
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const n = Number((entry.target as HTMLElement).dataset.page);
          ratios.set(n, entry.isIntersecting ? entry.intersectionRatio : 0);
        }
        const current = mostVisiblePage(ratios);
        recorder.clock.setPage(current);
        if (current !== null) setPage(current);
      },
      { root, threshold: THRESHOLDS },
    );
    root.querySelectorAll<HTMLElement>("[data-page]").forEach((el) => observer.observe(el));
    return () => {
      observer.disconnect();
      recorder.clock.setPage(null);
    };
  }, [pane, pageCount, recorder]);

  // The tab, the reader, and the page going away.
  useEffect(() => {
    const { clock } = recorder;
    clock.setVisible(document.visibilityState === "visible");
    const onInput = () => clock.input();
    const onVisibility = () => {
      const visible = document.visibilityState === "visible";
      clock.setVisible(visible);
      if (!visible) recorder.flush("beacon");
    };
    const onPageHide = () => recorder.flush("beacon");
    for (const name of INPUTS) window.addEventListener(name, onInput, { passive: true });
    // Scroll does not bubble: caught on its way down, from the pane or the page.
    document.addEventListener("scroll", onInput, { passive: true, capture: true });
    document.addEventListener("visibilitychange", onVisibility);
    window.addEventListener("pagehide", onPageHide);
    return () => {
      for (const name of INPUTS) window.removeEventListener(name, onInput);
      document.removeEventListener("scroll", onInput, { capture: true });
      document.removeEventListener("visibilitychange", onVisibility);
      window.removeEventListener("pagehide", onPageHide);
    };
  }, [recorder]);

  // Every 10 s while the visit is open, and once more as the viewer closes.
  const linkKey = visit?.linkKey;
  const visitId = visit?.visitId;
  useEffect(() => {
    if (!linkKey || !visitId) return;
    recorder.open({ linkKey, visitId });
    const timer = window.setInterval(() => recorder.flush("fetch"), FLUSH_MS);
    return () => {
      window.clearInterval(timer);
      recorder.flush("fetch");
      recorder.open(null);
    };
  }, [recorder, linkKey, visitId]);

  return { page, error };
}

/** The clock and where its time goes: kept for the viewer's life, outside React's renders. */
function pageRecorder(onRefused: (error: ApiError) => void) {
  const clock: PageClock = createPageClock({ now: () => performance.now() });
  let visit: Visit | null = null;
  return {
    clock,
    open(next: Visit | null) {
      visit = next;
    },
    /** Time read before the visit is open stays on the clock until it is. */
    flush(how: "fetch" | "beacon") {
      const open = visit;
      if (!open) return;
      for (const batch of clock.drain()) {
        if (how === "beacon" && beaconPageTimes(open.linkKey, open.visitId, batch)) continue;
        sendPageTimes(open.linkKey, open.visitId, batch).catch((e: unknown) => {
          if (isRetryable(e)) clock.credit(batch);
          else if (e instanceof ApiError) onRefused(e);
        });
      }
    },
  };
}

/** Time refused for a passing reason (no network, too many requests, a server failure) is counted again for the next batch; a refusal (link ended, visit unknown) is not. */
function isRetryable(error: unknown): boolean {
  return !(error instanceof ApiError) || error.status === 0 || error.status === 429 || error.status >= 500;
}
