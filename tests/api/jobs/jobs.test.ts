import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as jobRoute from "@/app/api/admin/job/[jobId]/route";
import * as retryRoute from "@/app/api/admin/job/[jobId]/retry/route";
import * as jobsRoute from "@/app/api/admin/jobs/route";
import { getDb } from "@/db";
import { jobs } from "@/db/schema";
import { jobResponse } from "@/lib/contracts/jobs";
import { createAdmin, createTestGroup, createTestUser, latestLog, unique } from "../../helpers/factories";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";

beforeAll(async () => {
  await getDb();
});

/** Jobs of a fresh kind (no handler: the worker of another test file would fail them, not run them). */
async function seedJobs() {
  const db = await getDb();
  const kind = unique("test.kind_");
  const old = new Date(Date.now() - 3_600_000);
  const [failed, pending, running, done] = await db
    .insert(jobs)
    .values([
      { kind, payload: { n: 1 }, status: "failed", attempts: 5, lastError: "SMTP 550 mailbox unavailable", finishedAt: old, runAt: old },
      { kind, payload: { n: 2 }, status: "pending", attempts: 2, lastError: "timeout", runAt: new Date(Date.now() + 3_600_000) },
      { kind, payload: { n: 3 }, status: "running", attempts: 1, lockedUntil: new Date(Date.now() + 300_000) },
      { kind, payload: { n: 4 }, status: "done", attempts: 1, finishedAt: old },
    ])
    .returning();
  return { kind, failed, pending, running, done };
}

const list = (token: string, query: Record<string, string | number>) => call(jobsRoute.GET, { path: "/api/admin/jobs", token, query });
const retry = (token: string, id: number) => call(retryRoute.POST, { method: "POST", token, params: { jobId: String(id) } });
const discard = (token: string, id: number) => call(jobRoute.DELETE, { method: "DELETE", token, params: { jobId: String(id) } });
const reload = async (id: number) => (await (await getDb()).select().from(jobs).where(eq(jobs.id, id)))[0];

describe("GET /api/admin/jobs", () => {
  it("lists queued, running and failed jobs (with the error) newest first; done ones on request", async () => {
    const admin = await createAdmin();
    const { kind, failed, pending, running, done } = await seedJobs();
    const res = await list(admin.token, { kind });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ offset_start: 0, nb_objects: 3, nb_total_objects: 3 });
    expect(res.body.objects.map((j: { id: number }) => j.id)).toEqual([running.id, pending.id, failed.id]);
    expect(jobResponse.strict().parse(res.body.objects[2])).toEqual({
      id: failed.id,
      kind,
      status: "failed",
      payload: { n: 1 },
      attempts: 5,
      max_attempts: 5,
      last_error: "SMTP 550 mailbox unavailable",
      run_at: failed.runAt.toISOString(),
      created_at: failed.createdAt.toISOString(),
      finished_at: failed.finishedAt!.toISOString(),
    });
    expect((await list(admin.token, { kind, status: "failed" })).body.objects.map((j: { id: number }) => j.id)).toEqual([failed.id]);
    expect((await list(admin.token, { kind, status: "done,failed" })).body.objects.map((j: { id: number }) => j.id)).toEqual([done.id, failed.id]);
    const page = await list(admin.token, { kind, offset_start: 1, nb_objects: 1 });
    expect(page.body).toMatchObject({ offset_start: 1, nb_objects: 1, nb_total_objects: 3 });
    expect(page.body.objects[0].id).toBe(pending.id);
  });

  it("refuses an unknown status, and everyone but administrators", async () => {
    const admin = await createAdmin();
    expectError(await list(admin.token, { status: "lost" }), 400, "invalid_request");
    await expectAuthRequired(jobsRoute.GET, { path: "/api/admin/jobs" });
    const manager = await createTestUser({ role: 4 });
    await createTestGroup({ managers: [manager.id] });
    for (const who of [await createTestUser(), manager]) expectError(await list(who.token, {}), 403, "forbidden");
  });
});

describe("POST /api/admin/job/(id)/retry", () => {
  it("queues a failed job again with fresh attempts, and runs a waiting one now; logged", async () => {
    const admin = await createAdmin();
    const { failed, pending } = await seedJobs();
    const res = await retry(admin.token, failed.id);
    expect(res.status, res.text).toBe(200);
    expect(jobResponse.parse(res.body)).toMatchObject({ id: failed.id, status: "pending", attempts: 0, finished_at: null });
    const row = await reload(failed.id);
    expect(row).toMatchObject({ status: "pending", attempts: 0, finishedAt: null });
    expect(row.runAt.getTime()).toBeLessThanOrEqual(Date.now());
    expect(await latestLog("job", failed.id)).toMatchObject({ type: "ADMLLOG_UPDATE", userId: admin.id });

    expect((await retry(admin.token, pending.id)).status).toBe(200);
    const waiting = await reload(pending.id);
    expect(waiting).toMatchObject({ status: "pending", attempts: 2 });
    expect(waiting.runAt.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it("is a 409 for a running or done job, or when a twin with the same dedupe key is already queued; 404 unknown", async () => {
    const admin = await createAdmin();
    const { running, done, kind } = await seedJobs();
    expectError(await retry(admin.token, running.id), 409, "conflict");
    expectError(await retry(admin.token, done.id), 409, "conflict");
    const db = await getDb();
    const key = unique("key_");
    const [failedTwin] = await db.insert(jobs).values({ kind, dedupeKey: key, status: "failed" }).returning();
    await db.insert(jobs).values({ kind, dedupeKey: key, status: "pending", runAt: new Date(Date.now() + 3_600_000) });
    expectError(await retry(admin.token, failedTwin.id), 409, "conflict");
    expect((await reload(failedTwin.id)).status).toBe("failed");
    expectError(await retry(admin.token, 2_000_000_000), 404, "not_found");
  });

  it("refuses everyone but administrators, and changes nothing", async () => {
    const { failed } = await seedJobs();
    await expectAuthRequired(retryRoute.POST, { method: "POST", params: { jobId: String(failed.id) } });
    const manager = await createTestUser({ role: 4 });
    await createTestGroup({ managers: [manager.id] });
    for (const who of [await createTestUser(), manager]) expectError(await retry(who.token, failed.id), 403, "forbidden");
    expect((await reload(failed.id)).status).toBe("failed");
  });
});

describe("DELETE /api/admin/job/(id)", () => {
  it("discards a failed or pending job; logged", async () => {
    const admin = await createAdmin();
    const { failed, pending } = await seedJobs();
    for (const job of [failed, pending]) {
      const res = await discard(admin.token, job.id);
      expect(res.status, res.text).toBe(204);
      expect(await reload(job.id)).toBeUndefined();
    }
    expect(await latestLog("job", failed.id)).toMatchObject({ type: "ADMLLOG_DELETE", userId: admin.id });
  });

  it("keeps a running job (409), 404 for an unknown one, refuses non-administrators", async () => {
    const admin = await createAdmin();
    const { running, failed } = await seedJobs();
    expectError(await discard(admin.token, running.id), 409, "conflict");
    expect(await reload(running.id)).toBeDefined();
    expectError(await discard(admin.token, 2_000_000_000), 404, "not_found");
    await expectAuthRequired(jobRoute.DELETE, { method: "DELETE", params: { jobId: String(failed.id) } });
    const manager = await createTestUser({ role: 4 });
    await createTestGroup({ managers: [manager.id] });
    for (const who of [await createTestUser(), manager]) expectError(await discard(who.token, failed.id), 403, "forbidden");
    expect(await reload(failed.id)).toBeDefined();
  });
});
