import { describe, expect, it } from "vitest";
import { niceTicks } from "@/components/ui/chart-scale";
import { formatBytes } from "@/components/file-browser/format";

const MB = 1024 ** 2;

describe("niceTicks (the dashboard's value axes)", () => {
  it("counts step by whole 1-2-5 numbers from 0 to a tick at or above the largest value", () => {
    expect(niceTicks(0, "count")).toEqual([0, 1]);
    expect(niceTicks(1, "count")).toEqual([0, 1]);
    expect(niceTicks(3, "count")).toEqual([0, 1, 2, 3]);
    expect(niceTicks(7, "count")).toEqual([0, 2, 4, 6, 8]);
    expect(niceTicks(15, "count")).toEqual([0, 5, 10, 15]);
    expect(niceTicks(1234, "count")).toEqual([0, 500, 1000, 1500]);
  });

  it("bytes step by round amounts of one unit and never print the same label twice", () => {
    expect(niceTicks(1, "bytes")).toEqual([0, 1]);
    expect(niceTicks(0, "bytes")).toEqual([0, 1]);
    expect(niceTicks(5.7 * MB, "bytes")).toEqual([0, 2 * MB, 4 * MB, 6 * MB]);
    expect(niceTicks(6 * 1024 ** 3, "bytes").at(-1)).toBe(6 * 1024 ** 3);
    for (const max of [1, 2, 3, 900, 1023, 1024, 1500, 208_314, 5.7 * MB, 1.8 * MB, 12.5 * MB, 6 * 1024 ** 3, 3.3 * 1024 ** 4]) {
      const ticks = niceTicks(max, "bytes");
      expect(ticks.at(-1)).toBeGreaterThanOrEqual(max);
      expect(ticks.length).toBeLessThanOrEqual(6);
      const labels = ticks.map((t) => formatBytes(t, "en"));
      expect(new Set(labels).size, labels.join(" / ")).toBe(labels.length);
    }
  });

  it("durations step by whole seconds, minutes or hours", () => {
    expect(niceTicks(0, "seconds")).toEqual([0, 1]);
    expect(niceTicks(50, "seconds")).toEqual([0, 20, 40, 60]);
    expect(niceTicks(7 * 60, "seconds")).toEqual([0, 120, 240, 360, 480]);
    expect(niceTicks(90, "seconds")).toEqual([0, 60, 120]);
    expect(niceTicks(2.5 * 3600, "seconds")).toEqual([0, 3600, 7200, 10800]);
    for (const max of [1, 59, 61, 599, 3599, 3601, 86_400]) for (const tick of niceTicks(max, "seconds")) expect(tick % (max >= 3600 ? 3600 : max >= 60 ? 60 : 1)).toBe(0);
  });
});
