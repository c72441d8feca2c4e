/**
 * The value axis of the charts: a few "nice" ticks from 0 to the first tick at or above the
 * largest value. Steps are 1, 2 or 5 times a power of ten; counts step by whole numbers; bytes
 * step by round amounts of one unit (1,024^k bytes: 0, 2 MB, 4 MB, 6 MB), so no two ticks can
 * print the same label ("1 B / 1 B / 0 B" was ticks at max, max/2 and 0 of a 1-byte max);
 * durations (in seconds) step by whole seconds, minutes or hours (0, 2 min, 4 min).
 */

export type ScaleKind = "count" | "bytes" | "seconds";

const MULTIPLIERS = [1, 2, 5];

/** The smallest 1-2-5 step (times a power of ten) that covers `max` in at most `most` steps. */
function niceStep(max: number, most: number, smallest: number): number {
  const raw = Math.max(max / most, smallest);
  let power = 10 ** Math.floor(Math.log10(raw));
  for (;;) {
    for (const m of MULTIPLIERS) {
      const step = m * power;
      if (step >= raw - 1e-9 && step >= smallest) return step;
    }
    power *= 10;
  }
}

/** Ticks from 0 up to the first multiple of the step at or above `max` (at least one step). */
export function niceTicks(max: number, kind: ScaleKind, most = 4): number[] {
  const top = Math.max(0, Number.isFinite(max) ? max : 0);
  let unit = 1;
  if (kind === "bytes") while (top / unit >= 1024) unit *= 1024;
  if (kind === "seconds") unit = top >= 3600 ? 3600 : top >= 60 ? 60 : 1;
  // Counts, seconds and bytes under one unit-step are whole numbers; a unit of bytes may step by a tenth (0.5 MB).
  const smallest = kind !== "bytes" || unit === 1 ? 1 : 0.1;
  const step = niceStep(top / unit, most, smallest) * unit;
  const count = Math.max(1, Math.ceil(top / step - 1e-9));
  return Array.from({ length: count + 1 }, (_, i) => Math.round(i * step * 1000) / 1000);
}
