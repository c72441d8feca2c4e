import { describe, expect, it } from "vitest";
import { fillDays, formatMs, formatPercent } from "@/components/engagement/format";

describe("the owner's analytics figures", () => {
  it("times read as hours and minutes, minutes and seconds, or seconds, in the reader's language", () => {
    expect(formatMs(0, "en")).toBe("0 sec");
    expect(formatMs(42_000, "en")).toBe("42 sec");
    expect(formatMs(137_000, "en")).toBe("2 min 17 sec");
    expect(formatMs(120_000, "en")).toBe("2 min");
    expect(formatMs(3_725_000, "en")).toBe("1 hr 2 min");
    expect(formatMs(3_725_000, "fr")).toMatch(/^1\sh 2\smin$/);
    expect(formatMs(-5, "en")).toBe("0 sec");
  });

  it("completion is a whole percent, clamped to 0..100", () => {
    expect(formatPercent(2 / 3, "en")).toBe("67%");
    expect(formatPercent(1.4, "en")).toBe("100%");
    expect(formatPercent(0.5, "fr")).toMatch(/^50\s%$/);
  });

  it("days without a visit are zeros, over the last 30 days at least, from an earlier first visit", () => {
    const now = Date.parse("2026-11-27T15:00:00Z");
    const days = fillDays([{ date: "2026-11-25", visits: 3, visitors: 2 }], 30, now);
    expect(days).toHaveLength(30);
    expect(days.at(-1)).toEqual({ date: "2026-11-27", visits: 0, visitors: 0 });
    expect(days.at(-3)).toEqual({ date: "2026-11-25", visits: 3, visitors: 2 });
    expect(days[0].date).toBe("2026-10-29");
    const longer = fillDays([{ date: "2026-09-01", visits: 1, visitors: 1 }], 30, now);
    expect(longer[0]).toEqual({ date: "2026-09-01", visits: 1, visitors: 1 });
    expect(longer.at(-1)?.date).toBe("2026-11-27");
  });
});
