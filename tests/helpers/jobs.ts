import { and, count, inArray } from "drizzle-orm";
import { getDb } from "@/db";
import { jobs } from "@/db/schema";
import { runDueJobs } from "@/lib/server/jobs/worker";

/**
 * Runs due jobs of `kinds` until `found` returns something. Test files run in parallel on one
 * database, so another file's worker may have claimed our job a moment before (SKIP LOCKED):
 * running once and reading at once would race it.
 */
export async function runJobsUntil<T>(kinds: string[], found: () => Promise<T | null | undefined>, timeoutMs = 10_000): Promise<T> {
  const db = await getDb();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await found();
    if (value !== null && value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`no result after running ${kinds.join(", ")} jobs for ${timeoutMs} ms`);
    if ((await runDueJobs(db, kinds)) === 0) await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Runs jobs of `kinds` until none is waiting or running, whichever worker ran them. */
export async function runJobsToCompletion(kinds: string[], timeoutMs = 10_000): Promise<void> {
  const db = await getDb();
  await runJobsUntil(
    kinds,
    async () => {
      const [row] = await db.select({ n: count() }).from(jobs).where(and(inArray(jobs.kind, kinds), inArray(jobs.status, ["pending", "running"])));
      return row.n === 0 ? true : undefined;
    },
    timeoutMs,
  );
}
