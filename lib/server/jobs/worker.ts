import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { getDb, rows, type Db } from "@/db";
import { kindsNamedBesides, lanesFromEnv, type Lane } from "./lanes";
import { handlerFor } from "./registry";
import { startScheduler, stopScheduler } from "./scheduler";

type ClaimedJob = { id: number; kind: string; payload: Record<string, unknown>; attempts: number; max_attempts: number };

const POLL_MS = 1000;
const BATCH = 5;

/**
 * A claim is a lease: a running job's worker renews it every third of it while the job runs, so a
 * job outlives its lease only in a process that died (or whose event loop stood still that long).
 * A process killed mid-job used to leave it running for 5 minutes: a periodic job (uploads.collect)
 * was neither run nor queued again meanwhile, since one was "running" (measured: a resilience test
 * found the work files of a SIGKILLed upload still there a minute after the restart).
 */
export type Leases = { leaseMs: number; reclaimEveryMs: number };
/** A job of a dead process is due again within lease + reclaim period: under a minute. */
const LEASES: Leases = { leaseMs: 30_000, reclaimEveryMs: 15_000 };

/** Jobs whose lease has lapsed (their worker died) are queued again; their attempt counts. */
async function releaseAbandonedJobs(db: Db): Promise<void> {
  await db.execute(sql`UPDATE jobs SET status = 'pending' WHERE status = 'running' AND locked_until < now()`);
}

/**
 * Claims up to `limit` due jobs that pass `filter`, the longest due first, for a lease of
 * `leaseMs`. FOR UPDATE SKIP LOCKED: processes polling the same database never claim the same
 * job, nor wait for each other.
 */
async function claimJobs(db: Db, filter: SQL, limit: number, leaseMs: number): Promise<ClaimedJob[]> {
  return rows<ClaimedJob>(
    await db.execute(sql`
      UPDATE jobs SET status = 'running', attempts = attempts + 1, locked_until = now() + ${leaseMs}::int * interval '1 millisecond'
      WHERE id IN (
        SELECT id FROM jobs WHERE status = 'pending' AND run_at <= now() ${filter}
        ORDER BY run_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
      RETURNING id, kind, payload, attempts, max_attempts`),
  );
}

/** Renews the lease of a running job every third of it until `done` settles. */
async function leased(db: Db, job: ClaimedJob, leaseMs: number, done: Promise<void>): Promise<void> {
  const renew = setInterval(() => {
    db.execute(sql`UPDATE jobs SET locked_until = now() + ${leaseMs}::int * interval '1 millisecond' WHERE id = ${job.id} AND status = 'running'`).catch(report);
  }, leaseMs / 3);
  renew.unref();
  try {
    await done;
  } finally {
    clearInterval(renew);
  }
}

const list = (kinds: readonly string[]) => sql.join(kinds.map((kind) => sql`${kind}`), sql`, `);
const ofKinds = (kinds: readonly string[]) => (kinds.length > 0 ? sql`AND kind IN (${list(kinds)})` : sql`AND false`);

/** A lane's jobs: its kinds, or for the lane of the rest every kind no other lane names. */
function laneFilter(lanes: readonly Lane[], lane: Lane): SQL {
  if (lane.kinds) return ofKinds(lane.kinds);
  const named = kindsNamedBesides(lanes, lane);
  return named.length > 0 ? sql`AND kind NOT IN (${list(named)})` : sql``;
}

/**
 * Claims due jobs (of `kinds`) and runs them one after another; returns how many ran. Tests and
 * tools call it; the server's worker runs the lanes instead.
 */
export async function runDueJobs(db: Db, kinds?: string[]): Promise<number> {
  await releaseAbandonedJobs(db);
  const claimed = await claimJobs(db, kinds ? ofKinds(kinds) : sql``, BATCH, LEASES.leaseMs);
  for (const job of claimed) await runOne(db, job, LEASES.leaseMs);
  return claimed.length;
}

async function runOne(db: Db, job: ClaimedJob, leaseMs: number) {
  try {
    const handler = await handlerFor(job.kind);
    if (!handler) throw new Error(`No handler for job kind ${job.kind}`);
    await leased(db, job, leaseMs, handler(db, job.payload, { lastAttempt: job.attempts >= job.max_attempts }));
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

export type JobWorker = {
  start: () => void;
  /** Stops claiming; resolves once the jobs it runs have finished. */
  stop: () => Promise<void>;
};

const report = (error: unknown) => {
  if (process.env.NODE_ENV !== "test") console.error("[coffre] job worker:", error instanceof Error ? error.message : error);
};

/**
 * A worker that runs each lane apart (lanes.ts): every lane claims its own jobs, up to its
 * concurrency, and claims again as soon as one of them ends, so a lane busy with a slow
 * conversion never holds a mail. Several processes may run workers on one database (SKIP
 * LOCKED); a lane's concurrency is per process.
 */
export function createJobWorker(options: { lanes: readonly Lane[]; pollMs?: number; db?: () => Promise<Db>; leases?: Leases }): JobWorker {
  const open = options.db ?? getDb;
  const { leaseMs, reclaimEveryMs } = options.leases ?? LEASES;
  const running = new Set<Promise<void>>();
  const lanes = options.lanes.filter((lane) => lane.concurrency > 0).map((lane) => ({ lane, filter: laneFilter(options.lanes, lane), active: 0, filling: null as Promise<void> | null }));
  let timer: NodeJS.Timeout | undefined;
  let reclaimedAt = 0;

  // One claim loop per lane at a time: it claims until the lane is full or nothing is due.
  const fill = (lane: (typeof lanes)[number]): Promise<void> => {
    if (!timer) return Promise.resolve();
    lane.filling ??= claimFor(lane).finally(() => {
      lane.filling = null;
    });
    return lane.filling;
  };

  const claimFor = async (lane: (typeof lanes)[number]) => {
    try {
      const db = await open();
      while (timer && lane.active < lane.lane.concurrency) {
        const claimed = await claimJobs(db, lane.filter, lane.lane.concurrency - lane.active, leaseMs);
        if (claimed.length === 0) break;
        for (const job of claimed) {
          lane.active++;
          const run: Promise<void> = runOne(db, job, leaseMs)
            .catch(report)
            .finally(() => {
              lane.active--;
              running.delete(run);
              void fill(lane);
            });
          running.add(run);
        }
      }
    } catch (error) {
      report(error);
    }
  };

  const tick = async () => {
    try {
      if (Date.now() - reclaimedAt >= reclaimEveryMs) {
        reclaimedAt = Date.now();
        await releaseAbandonedJobs(await open());
      }
    } catch (error) {
      report(error);
    }
    await Promise.all(lanes.map(fill));
  };

  return {
    start() {
      if (timer) return;
      timer = setInterval(() => void tick(), options.pollMs ?? POLL_MS);
      timer.unref();
      void tick();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await Promise.allSettled(lanes.map((lane) => lane.filling));
      await Promise.allSettled([...running]);
    },
  };
}

const state = globalThis as unknown as { __coffreWorker?: JobWorker };

/** The process's worker, with the lanes JOBS_CONCURRENCY sets, and the periodic jobs' scheduler. */
export function startWorker() {
  if (state.__coffreWorker) return;
  const { lanes, problems } = lanesFromEnv();
  for (const problem of problems) console.warn(`[coffre] ${problem}; the default is kept`);
  state.__coffreWorker = createJobWorker({ lanes });
  state.__coffreWorker.start();
  startScheduler();
}

export async function stopWorker(): Promise<void> {
  stopScheduler();
  const worker = state.__coffreWorker;
  state.__coffreWorker = undefined;
  await worker?.stop();
}
