import { setTimeout as sleep } from "node:timers/promises";
import { expect } from "vitest";
import * as healthRoute from "@/app/api/health/route";

/** Compiles the health route and opens its connections, so that measured answers come after. */
export async function warmHealth() {
  for (let i = 0; i < 5; i++) await healthRoute.GET();
}

/**
 * GET /api/health, again and again, for as long as `work` runs. Each time counts the answer and
 * how late the short pause after it ended: a blocked event loop shows in one or the other,
 * whenever it blocks.
 */
export async function healthWhile<T>(work: Promise<T>): Promise<{ result: T; times: number[]; elapsed: number }> {
  const PAUSE_MS = 20;
  const started = performance.now();
  let done = false;
  const settled = work.finally(() => {
    done = true;
  });
  const times: number[] = [];
  while (!done) {
    const t = performance.now();
    const res = await healthRoute.GET();
    expect(res.status).toBe(200);
    await sleep(PAUSE_MS);
    times.push(performance.now() - t - PAUSE_MS);
  }
  return { result: await settled, times, elapsed: performance.now() - started };
}

/**
 * Health answered in under 100 ms while the work ran (issue 25, finding 3). A loaded test machine
 * (other processes on the same cores) delays a few answers with nothing running at all, so one
 * in ten may be late, none by more than a second; work on the event loop held every answer for
 * seconds.
 */
export function expectHealthFast(times: number[]) {
  const shown = `health answered in ${times.map((t) => Math.round(t)).join(", ")} ms`;
  expect(times.filter((t) => t >= 100).length, shown).toBeLessThanOrEqual(Math.ceil(times.length / 10));
  expect(Math.max(...times), shown).toBeLessThan(1000);
}
