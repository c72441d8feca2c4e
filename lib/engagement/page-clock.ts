import { MAX_ENTRY_MS, MAX_PAGE_ENTRIES } from "@/lib/contracts/engagement";

/**
 * The honest clock of the page-by-page viewer (issue 30): visible time per page, counted only
 * while a page is on screen, the tab is visible and the reader is not idle. Pure: the DOM tells it
 * what happens (components/public-links/use-page-clock.ts) and `now()` is injected, so it is
 * tested with a fake clock.
 */

/** 60 s without any input and the clock stops; the next input restarts it. */
export const IDLE_MS = 60_000;

export type PageEntry = { page: number; ms: number };

export type PageClock = {
  /** The page on screen (the most visible one), or null when none is. */
  setPage(page: number | null): void;
  /** Page Visibility: a hidden tab counts nothing. Becoming visible is an input (the reader came back). */
  setVisible(visible: boolean): void;
  /** A pointer, key, scroll or touch input: the reader is there. */
  input(): void;
  /** The time counted so far as batches ready to send (each at most MAX_PAGE_ENTRIES entries of at most MAX_ENTRY_MS), and the clock starts again from zero. */
  drain(): PageEntry[][];
  /** Entries that could not be sent (a network failure) are counted again, for the next batch. */
  credit(entries: PageEntry[]): void;
  /** Whether time is being counted right now. */
  isCounting(): boolean;
};

export function createPageClock({ now, idleMs = IDLE_MS }: { now: () => number; idleMs?: number }): PageClock {
  let page: number | null = null;
  let visible = true;
  let lastInput = now();
  // Every state change first settles the time since the previous one, under the previous state.
  let settledAt = lastInput;
  // Insertion-ordered, so batches list pages in the order they were first read.
  const totals = new Map<number, number>();

  function add(p: number, ms: number) {
    if (ms > 0) totals.set(p, (totals.get(p) ?? 0) + ms);
  }

  function settle() {
    const t = now();
    if (page !== null && visible) {
      // Time is credited up to the idle limit at most: what follows 60 s without input is not reading.
      const end = Math.min(t, lastInput + idleMs);
      add(page, end - settledAt);
    }
    settledAt = t;
  }

  return {
    setPage(next) {
      if (next === page) return;
      settle();
      page = next;
    },
    setVisible(next) {
      if (next === visible) return;
      settle();
      visible = next;
      if (visible) lastInput = settledAt;
    },
    input() {
      settle();
      lastInput = settledAt;
    },
    drain() {
      settle();
      const entries: PageEntry[] = [];
      for (const [p, total] of totals) {
        let ms = Math.round(total);
        while (ms > 0) {
          const part = Math.min(ms, MAX_ENTRY_MS);
          entries.push({ page: p, ms: part });
          ms -= part;
        }
      }
      totals.clear();
      const batches: PageEntry[][] = [];
      for (let i = 0; i < entries.length; i += MAX_PAGE_ENTRIES) batches.push(entries.slice(i, i + MAX_PAGE_ENTRIES));
      return batches;
    },
    credit(entries) {
      for (const entry of entries) add(entry.page, entry.ms);
    },
    isCounting() {
      return page !== null && visible && now() - lastInput < idleMs;
    },
  };
}

/**
 * The page on screen, from each page's visible ratio (IntersectionObserver): the one with the
 * largest ratio, so a page at least half visible wins over its neighbours, and a page taller than
 * twice the screen (never half visible) still counts; the first on a tie; null when none shows.
 */
export function mostVisiblePage(ratios: ReadonlyMap<number, number>): number | null {
  let best: number | null = null;
  let bestRatio = 0;
  for (const [p, ratio] of ratios) {
    if (ratio > bestRatio || (ratio > 0 && ratio === bestRatio && best !== null && p < best)) {
      best = p;
      bestRatio = ratio;
    }
  }
  return best;
}
