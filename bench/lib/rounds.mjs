import { attempt } from "./util.mjs";

/**
 * Runs every task once per round, the order reversed every other round so neither side always
 * goes first on a noisy machine. Each task's figure is the median run by `metric` (the lower
 * middle when even: the conservative one for throughputs), with the largest RSS growth of all
 * its runs and every run's figure in `runs`. A task whose `run` is null is skipped (`skipped`).
 * `beforeEach` runs before every task (uploads: flush the previous task's writes first).
 */
export async function inRounds(rounds, tasks, { beforeEach } = {}) {
  const runs = new Map(tasks.map((t) => [t.key, []]));
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 ? [...tasks].reverse() : tasks;
    for (const task of order) {
      if (!task.run) continue;
      const label = rounds > 1 ? `${task.label} (round ${round + 1}/${rounds})` : task.label;
      await beforeEach?.();
      runs.get(task.key).push(await attempt(label, task.run));
    }
  }
  const out = {};
  for (const task of tasks) {
    out[task.key] = task.run ? pickMedian(runs.get(task.key), task.metric ?? "mibps") : task.skipped;
  }
  return out;
}

function pickMedian(list, metric) {
  const ok = list.filter((r) => typeof r?.[metric] === "number");
  if (ok.length === 0) return list[0];
  const sorted = [...ok].sort((a, b) => a[metric] - b[metric]);
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  const withRss = ok.filter((r) => r.rss);
  const rss = withRss.length ? withRss.reduce((a, b) => (b.rss.growth > a.rss.growth ? b : a)).rss : median.rss;
  return { ...median, rss, runs: list.map((r) => r?.[metric] ?? r?.error ?? null), failedRuns: list.length - ok.length };
}
