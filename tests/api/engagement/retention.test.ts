import { and, eq, inArray } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { linkEngagementDays, linkPageDays, linkPageEvents, linkVisitPages, linkVisits } from "@/db/schema";
import type { ShareAnalyticsJson } from "@/lib/contracts/engagement";
import { enqueueJob } from "@/lib/server/jobs/enqueue";
import { PERIODIC_JOBS } from "@/lib/server/jobs/scheduler";
import { createEngagementScene, createVisitor } from "../../helpers/engagement";
import { OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { runJobsToCompletion } from "../../helpers/jobs";
import { analytics, timeline } from "./engagement-calls";

beforeAll(openDatabase, OPEN_TIMEOUT);
afterEach(() => {
  delete process.env.ENGAGEMENT_RETENTION_DAYS;
});

const DAY = 86_400_000;
const dayOf = (d: Date) => d.toISOString().slice(0, 10);
/** Noon UTC `n` days ago: safely inside that UTC day. */
const daysAgo = (n: number) => new Date(Date.parse(`${dayOf(new Date())}T12:00:00Z`) - n * DAY);

/** A visit written as the routes write it (visit, events, per-page totals), at a chosen time. */
async function seedVisit(shareId: number, visitorId: number, fileId: number, at: Date, pages: { page: number; ms: number }[]) {
  const db = await getDb();
  const [visit] = await db.insert(linkVisits).values({ shareId, visitorId, fileId, tokenHash: "seeded", startedAt: at, lastAt: at }).returning();
  const common = { shareId, visitId: visit.id, visitorId, fileId };
  await db.insert(linkPageEvents).values(pages.map((p, i) => ({ ...common, ...p, at: new Date(at.getTime() + i * 1000) })));
  const totals = new Map<number, number>();
  for (const p of pages) totals.set(p.page, (totals.get(p.page) ?? 0) + p.ms);
  await db.insert(linkVisitPages).values([...totals].map(([page, ms]) => ({ ...common, page, ms })));
  return visit.id;
}

async function runDailyJob() {
  await enqueueJob(await getDb(), "engagement.daily", {});
  await runJobsToCompletion(["engagement.daily"], 30_000);
}

async function scene() {
  const s = await createEngagementScene();
  const { visitor, token } = await createVisitor(s.share.id);
  const old = await seedVisit(s.share.id, visitor.id, s.doc.id, daysAgo(400), [{ page: 1, ms: 100 }, { page: 1, ms: 200 }, { page: 3, ms: 50 }]);
  const recent = await seedVisit(s.share.id, visitor.id, s.doc.id, daysAgo(2), [{ page: 2, ms: 700 }]);
  const live = await seedVisit(s.share.id, visitor.id, s.doc.id, new Date(), [{ page: 1, ms: 5 }]);
  return { ...s, visitor, token, old, recent, live };
}

describe('job "engagement.daily"', () => {
  it("is run once a day by the scheduler", () => {
    expect(PERIODIC_JOBS).toContainEqual({ kind: "engagement.daily", everyMs: expect.any(Function) });
    expect(PERIODIC_JOBS.find((j) => j.kind === "engagement.daily")!.everyMs()).toBe(DAY);
  });

  it("folds events past the retention period into daily page totals and deletes them, without changing the analytics", async () => {
    const s = await scene();
    const db = await getDb();
    // An event of the old visit inside the window (a visit open across the cutoff) stays.
    await db.insert(linkPageEvents).values({ shareId: s.share.id, visitId: s.old, visitorId: s.visitor.id, fileId: s.doc.id, page: 2, ms: 1, at: daysAgo(3) });
    const before = (await analytics(s.share.id, s.owner.token)).body as ShareAnalyticsJson;
    await runDailyJob();
    const events = await db.select({ visitId: linkPageEvents.visitId, page: linkPageEvents.page }).from(linkPageEvents).where(inArray(linkPageEvents.visitId, [s.old, s.recent, s.live]));
    expect(events.map((e) => `${e.visitId}:${e.page}`).sort()).toEqual([`${s.old}:2`, `${s.recent}:2`, `${s.live}:1`].sort());
    const folded = await db.select().from(linkPageDays).where(eq(linkPageDays.shareId, s.share.id));
    expect(folded.map(({ fileId, page, day, views, ms }) => ({ fileId, page, day, views, ms })).sort((a, b) => a.page - b.page)).toEqual([
      { fileId: s.doc.id, page: 1, day: dayOf(daysAgo(400)), views: 1, ms: 300 },
      { fileId: s.doc.id, page: 3, day: dayOf(daysAgo(400)), views: 1, ms: 50 },
    ]);
    // The analytics read the per-visit totals, which are kept: the same figures, nothing counted twice.
    expect((await analytics(s.share.id, s.owner.token)).body).toEqual(before);
    expect(before.total_ms).toBe(1055);
    // The timeline keeps the old visit and its time, without its deleted events.
    const visits = (await timeline(s.share.id, s.visitor.id, s.owner.token)).body.visits as { visit_id: number; ms: number; events: unknown[] }[];
    expect(visits.find((v) => v.visit_id === s.old)).toMatchObject({ ms: 350, events: [{ page: 2, ms: 1 }] });
    expect(visits.find((v) => v.visit_id === s.recent)?.events).toHaveLength(1);

    // Run again: nothing more to fold, nothing added twice.
    await runDailyJob();
    const again = await db.select().from(linkPageDays).where(eq(linkPageDays.shareId, s.share.id));
    expect(again.map((r) => r.views + r.ms).sort()).toEqual(folded.map((r) => r.views + r.ms).sort());
  });

  it("writes the days before today in link_engagement_days, recomputed rather than added", async () => {
    const s = await scene();
    const db = await getDb();
    await seedVisit(s.share.id, s.visitor.id, s.notes.id, new Date(daysAgo(2).getTime() + 3600_000), [{ page: 1, ms: 20 }]);
    await runDailyJob();
    await runDailyJob();
    const days = await db.select().from(linkEngagementDays).where(and(eq(linkEngagementDays.shareId, s.share.id), eq(linkEngagementDays.day, dayOf(daysAgo(2)))));
    expect(days.map(({ visits, visitors, ms }) => ({ visits, visitors, ms }))).toEqual([{ visits: 2, visitors: 1, ms: 720 }]);
    const today = await db.select().from(linkEngagementDays).where(and(eq(linkEngagementDays.shareId, s.share.id), eq(linkEngagementDays.day, dayOf(new Date()))));
    expect(today).toEqual([]);
  });

  it("keeps the events inside ENGAGEMENT_RETENTION_DAYS", async () => {
    const s = await scene();
    process.env.ENGAGEMENT_RETENTION_DAYS = "500";
    await runDailyJob();
    const db = await getDb();
    expect(await db.select().from(linkPageEvents).where(eq(linkPageEvents.visitId, s.old))).toHaveLength(3);
    expect(await db.select().from(linkPageDays).where(eq(linkPageDays.shareId, s.share.id))).toEqual([]);
  });
});
