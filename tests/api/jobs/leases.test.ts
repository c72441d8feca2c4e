import { setTimeout as sleep } from "node:timers/promises";
import { eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { getDb, rows } from "@/db";
import { jobs } from "@/db/schema";
import { enqueueJob } from "@/lib/server/jobs/enqueue";
import { registerJobHandler } from "@/lib/server/jobs/registry";
import { createJobWorker, type JobWorker } from "@/lib/server/jobs/worker";
import { unique } from "../../helpers/factories";

// lib/server/jobs/worker.ts: a claim is a lease the running job's worker renews. A process killed
// mid-job used to leave it "running" for 5 minutes, and a periodic job (uploads.collect) was
// neither run nor queued again meanwhile: the resilience test of a SIGKILL mid-upload found the
// work files still there a minute after the restart. Each worker here runs only this file's kinds.

const workers: JobWorker[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop()));
});

const jobsOf = async (kind: string) => (await getDb()).select().from(jobs).where(eq(jobs.kind, kind)).orderBy(jobs.id);

function startWorker(kind: string, leases?: { leaseMs: number; reclaimEveryMs: number }) {
  const worker = createJobWorker({ lanes: [{ name: "other", kinds: [kind], concurrency: 1 }], pollMs: 50, leases });
  workers.push(worker);
  worker.start();
  return worker;
}

describe("job leases", () => {
  it("claims a job for well under a minute, and renews the claim while it runs", { timeout: 60_000 }, async () => {
    const db = await getDb();
    const kind = unique("test.lease_");
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    registerJobHandler(kind, async () => () => Promise.race([released, sleep(30_000)]));
    await enqueueJob(db, kind, {});
    startWorker(kind);
    await expect.poll(async () => (await jobsOf(kind))[0].status, { timeout: 10_000 }).toBe("running");
    const [{ left }] = rows<{ left: number }>(await db.execute(sql`SELECT extract(epoch FROM locked_until - now())::float AS left FROM jobs WHERE kind = ${kind}`));
    // Was 5 minutes: a dead process's job now comes back within lease + reclaim period.
    expect(left).toBeGreaterThan(5);
    expect(left).toBeLessThanOrEqual(30);
    release();
    await expect.poll(async () => (await jobsOf(kind))[0].status, { timeout: 10_000 }).toBe("done");
  });

  it("runs again the job a dead process left running once its lease lapsed", { timeout: 60_000 }, async () => {
    const db = await getDb();
    const kind = unique("test.orphan_");
    const runs: number[] = [];
    registerJobHandler(kind, async () => async () => void runs.push(Date.now()));
    // As a process killed mid-job leaves it: claimed, its lease running out in a second, no one renewing it.
    await db.insert(jobs).values({ kind, payload: {}, status: "running", attempts: 1, lockedUntil: new Date(Date.now() + 1_000) });
    const started = Date.now();
    startWorker(kind, { leaseMs: 1_000, reclaimEveryMs: 200 });
    await expect.poll(async () => (await jobsOf(kind))[0].status, { timeout: 15_000 }).toBe("done");
    expect(runs).toHaveLength(1);
    expect(runs[0] - started).toBeGreaterThanOrEqual(900);
    expect((await jobsOf(kind))[0].attempts).toBe(2);
  });

  it("never hands a job that outlives its lease to another worker while it runs", { timeout: 60_000 }, async () => {
    const db = await getDb();
    const kind = unique("test.long_");
    let runs = 0;
    registerJobHandler(kind, async () => async () => {
      runs++;
      await sleep(7_000);
    });
    await enqueueJob(db, kind, {});
    // Two processes on one database; the job runs over twice its lease, renewed every third of it
    // (a renewal may wait its turn a second behind the polls on a loaded machine, on PGlite's one connection).
    const leases = { leaseMs: 3_000, reclaimEveryMs: 100 };
    startWorker(kind, leases);
    startWorker(kind, leases);
    await expect.poll(async () => (await jobsOf(kind))[0].status, { timeout: 40_000 }).toBe("done");
    expect(runs).toBe(1);
    expect((await jobsOf(kind))[0].attempts).toBe(1);
  });
});
