import "server-only";
import { sql } from "drizzle-orm";
import { getDb, rows, type Db } from "@/db";
import { handlerFor } from "./registry";
import { startScheduler, stopScheduler } from "./scheduler";

type ClaimedJob = { id: number; kind: string; payload: Record<string, unknown>; attempts: number; max_attempts: number };

const POLL_MS = 1000;
const BATCH = 5;

/** Claims due jobs with FOR UPDATE SKIP LOCKED and runs them; returns how many ran. */
export async function runDueJobs(db: Db, kinds?: string[]): Promise<number> {
  await db.execute(sql`UPDATE jobs SET status = 'pending' WHERE status = 'running' AND locked_until < now()`);
  const kindFilter = kinds ? sql`AND kind IN (${sql.join(kinds.map((k) => sql`${k}`), sql`, `)})` : sql``;
  const claimed = rows<ClaimedJob>(
    await db.execute(sql`
      UPDATE jobs SET status = 'running', attempts = attempts + 1, locked_until = now() + interval '5 minutes'
      WHERE id IN (
        SELECT id FROM jobs WHERE status = 'pending' AND run_at <= now() ${kindFilter}
        ORDER BY run_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)
      RETURNING id, kind, payload, attempts, max_attempts`),
  );
  for (const job of claimed) await runOne(db, job);
  return claimed.length;
}

async function runOne(db: Db, job: ClaimedJob) {
  try {
    const handler = await handlerFor(job.kind);
    if (!handler) throw new Error(`No handler for job kind ${job.kind}`);
    await handler(db, job.payload);
    await db.execute(sql`UPDATE jobs SET status = 'done', finished_at = now(), locked_until = NULL WHERE id = ${job.id}`);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const failed = job.attempts >= job.max_attempts;
    // Backoff: 5 s, 20 s, 80 s, ... capped at one hour.
    const delaySeconds = Math.min(3600, 5 * 4 ** (job.attempts - 1));
    await db.execute(sql`
      UPDATE jobs SET status = ${failed ? "failed" : "pending"}, last_error = ${message.slice(0, 2000)},
        run_at = now() + ${`${delaySeconds} seconds`}::interval, locked_until = NULL,
        finished_at = ${failed ? sql`now()` : sql`NULL`}
      WHERE id = ${job.id}`);
  }
}

const state = globalThis as unknown as { __coffreWorker?: NodeJS.Timeout };

/** Polls the queue in this process; several processes may poll the same database safely. */
export function startWorker() {
  if (state.__coffreWorker) return;
  let busy = false;
  state.__coffreWorker = setInterval(async () => {
    if (busy) return;
    busy = true;
    try {
      const db = await getDb();
      while ((await runDueJobs(db)) === BATCH);
    } catch (error) {
      if (process.env.NODE_ENV !== "test") console.error("[coffre] job worker:", (error as Error).message);
    } finally {
      busy = false;
    }
  }, POLL_MS);
  state.__coffreWorker.unref();
  startScheduler();
}

export function stopWorker() {
  stopScheduler();
  if (state.__coffreWorker) clearInterval(state.__coffreWorker);
  state.__coffreWorker = undefined;
}
