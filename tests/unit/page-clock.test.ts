import { describe, expect, it } from "vitest";
import { MAX_ENTRY_MS, MAX_PAGE_ENTRIES } from "@/lib/contracts/engagement";
import { createPageClock, IDLE_MS, mostVisiblePage, type PageEntry } from "@/lib/engagement/page-clock";

// Issue 30: the viewer's honest clock, on a fake clock the test moves by hand.
function fakeClock(start = 1_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

const flat = (batches: PageEntry[][]) => batches.flat();

describe("the page clock", () => {
  it("counts the time a page is on screen in a visible tab", () => {
    const time = fakeClock();
    const clock = createPageClock({ now: time.now });
    time.advance(5_000); // nothing on screen yet: not counted
    clock.setPage(1);
    time.advance(3_000);
    expect(clock.isCounting()).toBe(true);
    expect(flat(clock.drain())).toEqual([{ page: 1, ms: 3_000 }]);
  });

  it("counts nothing while the tab is hidden", () => {
    const time = fakeClock();
    const clock = createPageClock({ now: time.now });
    clock.setPage(2);
    time.advance(1_000);
    clock.setVisible(false);
    time.advance(40_000);
    expect(clock.isCounting()).toBe(false);
    clock.setVisible(true);
    time.advance(2_000);
    expect(flat(clock.drain())).toEqual([{ page: 2, ms: 3_000 }]);
  });

  it("counts nothing when no page is on screen", () => {
    const time = fakeClock();
    const clock = createPageClock({ now: time.now });
    clock.setPage(1);
    time.advance(1_000);
    clock.setPage(null);
    time.advance(10_000);
    expect(flat(clock.drain())).toEqual([{ page: 1, ms: 1_000 }]);
  });

  it("stops 60 s after the last input, and the next input restarts it without the idle time", () => {
    const time = fakeClock();
    const clock = createPageClock({ now: time.now });
    clock.setPage(1);
    time.advance(IDLE_MS + 120_000); // 60 s of reading, then 2 min away
    expect(clock.isCounting()).toBe(false);
    clock.input();
    expect(clock.isCounting()).toBe(true);
    time.advance(4_000);
    expect(flat(clock.drain())).toEqual([{ page: 1, ms: IDLE_MS + 4_000 }]);
  });

  it("keeps counting while inputs come, however long the reading", () => {
    const time = fakeClock();
    const clock = createPageClock({ now: time.now });
    clock.setPage(1);
    for (let i = 0; i < 5; i++) {
      time.advance(50_000);
      clock.input();
    }
    expect(flat(clock.drain())).toEqual([{ page: 1, ms: 250_000 }]);
  });

  it("a tab coming back is an input: the time away is not idle time carried over", () => {
    const time = fakeClock();
    const clock = createPageClock({ now: time.now });
    clock.setPage(1);
    time.advance(50_000);
    clock.setVisible(false);
    time.advance(300_000);
    clock.setVisible(true);
    time.advance(30_000);
    expect(clock.isCounting()).toBe(true);
    expect(flat(clock.drain())).toEqual([{ page: 1, ms: 80_000 }]);
  });

  it("splits the time between pages when the page on screen changes, pages adding up", () => {
    const time = fakeClock();
    const clock = createPageClock({ now: time.now });
    clock.setPage(1);
    time.advance(3_000);
    clock.setPage(3);
    time.advance(2_000);
    clock.setPage(1);
    time.advance(500);
    expect(flat(clock.drain())).toEqual([
      { page: 1, ms: 3_500 },
      { page: 3, ms: 2_000 },
    ]);
  });

  it("drains from zero: a second drain has only what came after the first", () => {
    const time = fakeClock();
    const clock = createPageClock({ now: time.now });
    clock.setPage(1);
    time.advance(1_000);
    clock.drain();
    expect(clock.drain()).toEqual([]);
    time.advance(700);
    expect(flat(clock.drain())).toEqual([{ page: 1, ms: 700 }]);
  });

  it("rounds to whole milliseconds", () => {
    const time = fakeClock(0.25);
    const clock = createPageClock({ now: time.now });
    clock.setPage(4);
    time.advance(1_234.6);
    expect(flat(clock.drain())).toEqual([{ page: 4, ms: 1_235 }]);
  });

  it("splits an entry longer than MAX_ENTRY_MS", () => {
    const time = fakeClock();
    const clock = createPageClock({ now: time.now, idleMs: Number.POSITIVE_INFINITY });
    clock.setPage(1);
    time.advance(2 * MAX_ENTRY_MS + 5);
    const entries = flat(clock.drain());
    expect(entries).toEqual([
      { page: 1, ms: MAX_ENTRY_MS },
      { page: 1, ms: MAX_ENTRY_MS },
      { page: 1, ms: 5 },
    ]);
  });

  it("cuts the entries into batches of at most MAX_PAGE_ENTRIES", () => {
    const time = fakeClock();
    const clock = createPageClock({ now: time.now });
    const pages = MAX_PAGE_ENTRIES * 2 + 3;
    for (let p = 1; p <= pages; p++) {
      clock.setPage(p);
      time.advance(10);
    }
    const batches = clock.drain();
    expect(batches.map((b) => b.length)).toEqual([MAX_PAGE_ENTRIES, MAX_PAGE_ENTRIES, 3]);
    expect(batches[2].at(-1)).toEqual({ page: pages, ms: 10 });
    expect(flat(batches).reduce((sum, e) => sum + e.ms, 0)).toBe(pages * 10);
  });

  it("counts again what could not be sent", () => {
    const time = fakeClock();
    const clock = createPageClock({ now: time.now });
    clock.setPage(2);
    time.advance(1_000);
    const [batch] = clock.drain();
    clock.credit(batch);
    time.advance(500);
    expect(flat(clock.drain())).toEqual([{ page: 2, ms: 1_500 }]);
  });
});

describe("mostVisiblePage", () => {
  it("takes the page with the largest visible ratio, the first on a tie, none when nothing shows", () => {
    expect(mostVisiblePage(new Map([[1, 0.2], [2, 0.7], [3, 0.1]]))).toBe(2);
    expect(mostVisiblePage(new Map([[3, 1], [2, 1]]))).toBe(2);
    expect(mostVisiblePage(new Map([[5, 0.3], [6, 0.05]]))).toBe(5);
    expect(mostVisiblePage(new Map([[1, 0], [2, 0]]))).toBeNull();
    expect(mostVisiblePage(new Map())).toBeNull();
  });
});
