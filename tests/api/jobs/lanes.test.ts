import { setTimeout as sleep } from "node:timers/promises";
import { eq, inArray } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import * as jobsRoute from "@/app/api/admin/jobs/route";
import * as resetRoute from "@/app/api/reset_password/route";
import { getDb } from "@/db";
import { jobs } from "@/db/schema";
import { enqueueJob } from "@/lib/server/jobs/enqueue";
import { LANES } from "@/lib/server/jobs/lanes";
import { handlerFor, registerJobHandler } from "@/lib/server/jobs/registry";
import { createJobWorker, startWorker, stopWorker, type JobWorker } from "@/lib/server/jobs/worker";
import { createAdmin, createTestUser, unique } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { onOwnDatabase } from "../../helpers/own-database";
import { withLocalSmtp } from "../../helpers/smtp";

// The server's own worker runs every lane here, and would run other files' jobs on a shared
// database (and mail them to this file's SMTP server): this file has a database of its own.
onOwnDatabase("coffre_lanes");
const smtp = withLocalSmtp(getDb, 120_000);

const workers: JobWorker[] = [];
afterEach(async () => {
  await stopWorker();
  await Promise.all(workers.splice(0).map((worker) => worker.stop()));
});

/** A handler that waits until released (at most a minute), counting the runs going on at once. */
function gate() {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const seen = { started: [] as unknown[], running: 0, most: 0 };
  const handler = async (_db: unknown, payload: Record<string, unknown>) => {
    seen.started.push(payload.n);
    seen.running++;
    seen.most = Math.max(seen.most, seen.running);
    await Promise.race([released, sleep(60_000)]);
    seen.running--;
  };
  return { handler, release, seen };
}

const jobsOf = async (kind: string) => (await getDb()).select().from(jobs).where(eq(jobs.kind, kind)).orderBy(jobs.id);

// Issue 25, finding 10: a password-reset mail waited 119 s behind a LibreOffice conversion.
describe("the job queue's lanes", () => {
  it("mails a password reset while the previews lane is stuck in a slow conversion", { timeout: 60_000 }, async () => {
    const db = await getDb();
    // A conversion that takes as long as the test lets it (a real one is the converters' tests' business).
    const slow = gate();
    registerJobHandler("previews.make", async () => slow.handler);
    const user = await createTestUser();
    // Three previews queued before the reset, as after dropping a few office documents.
    for (const n of [1, 2, 3]) await enqueueJob(db, "previews.make", { versionId: 2_000_000_000 + n, n }, { runAt: new Date(Date.now() - 60_000) });
    const res = await call(resetRoute.POST, { method: "POST", body: { login_or_email: user.login } });
    expect(res.status, res.text).toBe(204);

    startWorker();
    try {
      const mail = await smtp().waitFor((m) => m.to.includes(user.email), 15_000);
      expect(mail.text).toMatch(/\/reset-password\/[A-Za-z0-9_-]+/);
      // Meanwhile the previews lane holds its one conversion, and the others wait their turn.
      expect(slow.seen.started).toEqual([1]);
      expect((await jobsOf("previews.make")).map((j) => j.status)).toEqual(["running", "pending", "pending"]);
      await expect.poll(async () => (await jobsOf("mail.send")).map((j) => j.status)).toEqual(["done"]);
    } finally {
      slow.release();
    }
    // Released, the lane runs the rest, one at a time.
    await expect.poll(async () => (await jobsOf("previews.make")).map((j) => j.status), { timeout: 15_000 }).toEqual(["done", "done", "done"]);
    expect(slow.seen.most).toBe(1);
  });

  it("runs each lane up to its concurrency, and each job once across several processes", { timeout: 60_000 }, async () => {
    const db = await getDb();
    const [mailKind, slowKind] = [unique("test.mail_"), unique("test.slow_")];
    const mail = gate();
    const slow = gate();
    registerJobHandler(mailKind, async () => mail.handler);
    registerJobHandler(slowKind, async () => slow.handler);
    const lanes = [
      { name: "mail", kinds: [mailKind], concurrency: 2 },
      { name: "slow", kinds: [slowKind], concurrency: 1 },
    ];
    for (let n = 0; n < 8; n++) await enqueueJob(db, mailKind, { n });
    for (let n = 0; n < 4; n++) await enqueueJob(db, slowKind, { n });
    // Two workers on one database, as two server processes would be (50 ms polls, to be quick).
    for (let i = 0; i < 2; i++) workers.push(createJobWorker({ lanes, pollMs: 50 }));
    for (const worker of workers) worker.start();

    await expect.poll(() => mail.seen.running, { timeout: 10_000 }).toBe(4);
    await expect.poll(() => slow.seen.running, { timeout: 10_000 }).toBe(2);
    await sleep(300);
    expect(mail.seen.running).toBe(4);
    expect(slow.seen.running).toBe(2);
    mail.release();
    slow.release();
    await expect.poll(async () => (await db.select().from(jobs).where(inArray(jobs.kind, [mailKind, slowKind]))).every((j) => j.status === "done"), { timeout: 15_000 }).toBe(true);
    const done = await db.select().from(jobs).where(inArray(jobs.kind, [mailKind, slowKind]));
    expect(done.map((j) => j.attempts)).toEqual(Array(12).fill(1));
    expect([...mail.seen.started].sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(mail.seen.most).toBe(4);
    expect(slow.seen.most).toBe(2);
  });

  it("retries a failing job with backoff, and an administrator sees it fail for good", { timeout: 60_000 }, async () => {
    const db = await getDb();
    const kind = unique("test.failing_");
    registerJobHandler(kind, async () => async () => {
      throw new Error("the SMTP server said 451");
    });
    await enqueueJob(db, kind, {}, { maxAttempts: 2 });
    const worker = createJobWorker({ lanes: [{ name: "other", kinds: [kind], concurrency: 1 }], pollMs: 50 });
    workers.push(worker);
    worker.start();
    await expect.poll(async () => (await jobsOf(kind))[0].attempts, { timeout: 10_000 }).toBe(1);
    const [waiting] = await jobsOf(kind);
    expect(waiting).toMatchObject({ status: "pending", lastError: "the SMTP server said 451" });
    expect(waiting.runAt.getTime() - Date.now()).toBeGreaterThan(2_000);
    // The backoff over, the second and last attempt fails the job.
    await db.update(jobs).set({ runAt: new Date() }).where(eq(jobs.id, waiting.id));
    await expect.poll(async () => (await jobsOf(kind))[0].status, { timeout: 10_000 }).toBe("failed");
    const admin = await createAdmin();
    const listed = await call(jobsRoute.GET, { path: "/api/admin/jobs", token: admin.token, query: { kind, status: "failed" } });
    expect(listed.body.objects).toMatchObject([{ id: waiting.id, status: "failed", attempts: 2, last_error: "the SMTP server said 451" }]);
  });

  it("keeps mail and password resets apart from previews and text extraction", async () => {
    // A kind renamed in the registry would silently fall into the lane of the rest.
    for (const kind of LANES.flatMap((lane) => lane.kinds ?? [])) expect(await handlerFor(kind), kind).toBeTypeOf("function");
    const laneOf = (kind: string) => LANES.find((lane) => lane.kinds?.includes(kind))?.name ?? "other";
    expect(["mail.send", "account.password-reset"].map(laneOf)).toEqual(["mail", "mail"]);
    expect(laneOf("previews.make")).toBe("previews");
    expect(laneOf("texts.extract")).toBe("texts");
    // OCR takes minutes a scan: its own lane, so PDFs' and office documents' texts never wait behind it.
    expect(laneOf("texts.ocr")).toBe("ocr");
    expect(laneOf("blobs.collect")).toBe("other");
  });
});
