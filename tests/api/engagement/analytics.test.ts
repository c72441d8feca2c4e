import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { linkEngagementDays } from "@/db/schema";
import type { LinksAnalyticsJson, ShareAnalyticsJson, VisitorTimelineJson } from "@/lib/contracts/engagement";
import { csvCell } from "@/lib/server/engagement/analytics/export-analytics";
import { recordShareAccess } from "@/lib/server/shares/record-access";
import { createEngagementScene, createVisitor } from "../../helpers/engagement";
import { createAdmin, createExpiredToken, createTestUser } from "../../helpers/factories";
import { OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { allRightsBut, grantRight } from "../../helpers/files";
import { expectError } from "../../helpers/http";
import { analytics, exportCsv, openVisit, sendPages, summary, timeline } from "./engagement-calls";

beforeAll(openDatabase, OPEN_TIMEOUT);

const today = () => new Date().toISOString().slice(0, 10);

/**
 * Two visitors who opened documents and one who only passed the gate:
 * - ann: doc page 1 (1,000 ms) and 3 (3,000 ms); doc again, page 1 (2,000 ms); `notes` page 2 with no visible time;
 * - bob (an email written as a formula): doc page 1 (4,000 ms) and 3 (2,000 ms);
 * - cy: no visit.
 * And two downloads and a zip through the link, besides a preview.
 */
async function scenario() {
  const scene = await createEngagementScene();
  const { share, doc, notes } = scene;
  const agreementAt = new Date("2026-01-02T03:04:05.000Z");
  const ann = await createVisitor(share.id, { email: "ann@example.com", agreementAt });
  const bob = await createVisitor(share.id, { email: "=1+2@example.com" });
  const cy = await createVisitor(share.id, { email: null });
  const visit = async (token: string, fileId: number, pages: { page: number; ms: number }[]) => {
    const opened = await openVisit(share.key, token, fileId);
    expect(opened.status, opened.text).toBe(201);
    const sent = await sendPages(share.key, token, opened.body.visit_id, pages, `10.5.${share.id % 250}.${fileId % 250}`);
    expect(sent.status, sent.text).toBe(204);
    return opened.body.visit_id as number;
  };
  const annFirst = await visit(ann.token, doc.id, [{ page: 1, ms: 600 }, { page: 3, ms: 3000 }, { page: 1, ms: 400 }]);
  const annSecond = await visit(ann.token, doc.id, [{ page: 1, ms: 2000 }]);
  await visit(ann.token, notes.id, [{ page: 2, ms: 0 }]);
  await visit(bob.token, doc.id, [{ page: 1, ms: 4000 }, { page: 3, ms: 2000 }]);
  const db = await getDb();
  const request = { ip: "10.1.1.1", userAgent: "vitest" };
  for (const kind of ["download", "download", "zip", "preview"] as const) await recordShareAccess(db, share, request, { kind, fileId: scene.file.id, versionId: doc.id });
  return { ...scene, ann, bob, cy, agreementAt, annFirst, annSecond };
}

describe("GET /share/(id)/analytics", () => {
  it("adds up visits, visitors, downloads, time per page with medians, days and visitors", async () => {
    const s = await scenario();
    const res = await analytics(s.share.id, s.owner.token);
    expect(res.status, res.text).toBe(200);
    const body = res.body as ShareAnalyticsJson;
    expect(body).toMatchObject({ visits: 4, visitors: 2, downloads: 3, total_ms: 12_000 });
    expect(body.pages).toEqual([
      { file_id: s.doc.id, page: 1, views: 3, ms_total: 7000, ms_median: 2000 },
      { file_id: s.doc.id, page: 3, views: 2, ms_total: 5000, ms_median: 2500 },
    ]);
    expect(body.daily).toEqual([{ date: today(), visits: 4, visitors: 2 }]);
    const byEmail = new Map(body.visitors_list.map((v) => [v.email, v]));
    expect(body.visitors_list).toHaveLength(3);
    expect(byEmail.get("ann@example.com")).toMatchObject({ visitor_id: s.ann.visitor.id, visits: 3, ms: 6000, pages_seen: 2, completion: 0.4, downloads: 0, agreement_at: s.agreementAt.toISOString() });
    expect(byEmail.get("=1+2@example.com")).toMatchObject({ visits: 1, ms: 6000, pages_seen: 2, completion: 0.667, agreement_at: null });
    expect(byEmail.get(null)).toMatchObject({ visitor_id: s.cy.visitor.id, visits: 0, ms: 0, pages_seen: 0, completion: 0 });
    for (const v of body.visitors_list) expect(Date.parse(v.first_at)).toBeLessThanOrEqual(Date.parse(v.last_at));
  });

  it("answers an administrator, and refuses another user, a user with every right on the folder, and no token", async () => {
    const s = await scenario();
    const admin = await createAdmin();
    expect((await analytics(s.share.id, admin.token)).body.visits).toBe(4);
    expectError(await analytics(s.share.id, s.other.token), 404, "not_found");
    await grantRight(s.folder.id, s.other.id, allRightsBut());
    expectError(await analytics(s.share.id, s.other.token), 404, "not_found");
    expectError(await analytics(s.share.id), 401, "unauthorized");
    expectError(await analytics(s.share.id, await createExpiredToken(s.owner.id)), 401);
    expectError(await analytics(999_999_999, s.owner.token), 404, "not_found");
    expectError(await analytics("1\u0000" as unknown as number, s.owner.token), 400);
  });

  it("answers an empty link with zeros", async () => {
    const { share, owner } = await createEngagementScene();
    expect((await analytics(share.id, owner.token)).body).toEqual({ visits: 0, visitors: 0, downloads: 0, total_ms: 0, pages: [], daily: [], visitors_list: [] });
  });
});

describe("GET /share/(id)/analytics/export", () => {
  it("writes the visitors as CSV, a formula-like email neutralised", async () => {
    const s = await scenario();
    const res = await exportCsv(s.share.id, s.owner.token);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="link-\d+-visitors\.csv"$/);
    const lines = res.text.replace(/^\ufeff/, "").trimEnd().split("\r\n");
    expect(lines[0]).toBe("email,visits,first_at,last_at,ms,pages_seen,completion,downloads,agreement_at");
    expect(lines).toHaveLength(4);
    const bob = lines.find((l) => l.includes("1+2@example.com"))!;
    expect(bob.startsWith(`"'=1+2@example.com",1,`)).toBe(true);
    expect(lines.find((l) => l.startsWith("ann@example.com,3,"))).toMatch(/,6000,2,0\.4,0,2026-01-02T03:04:05\.000Z$/);
    expect(lines.some((l) => l.startsWith(",0,"))).toBe(true);
    expect(res.text).not.toMatch(/(^|,)=1/m);
  });

  it("neutralises every formula lead and quotes separators", () => {
    expect(["=a", "+a", "-a", "@a", "\ta", "plain", 'a"b', "a,b", null, 0.5].map((v) => csvCell(v))).toEqual([`"'=a"`, `"'+a"`, `"'-a"`, `"'@a"`, `"'\ta"`, "plain", `"a""b"`, `"a,b"`, "", "0.5"]);
  });

  it("refuses another user and no token", async () => {
    const s = await scenario();
    expectError(await exportCsv(s.share.id, s.other.token), 404, "not_found");
    expectError(await exportCsv(s.share.id), 401, "unauthorized");
  });
});

describe("GET /share/(id)/analytics/visitors/(visitorId)", () => {
  it("lists a visitor's visits with their page events in order", async () => {
    const s = await scenario();
    const res = await timeline(s.share.id, s.ann.visitor.id, s.owner.token);
    expect(res.status, res.text).toBe(200);
    const body = res.body as VisitorTimelineJson;
    expect(body.visitor_id).toBe(s.ann.visitor.id);
    expect(body.email).toBe("ann@example.com");
    expect(body.visits.map((v) => [v.file_id, v.ms])).toEqual([[s.doc.id, 4000], [s.doc.id, 2000], [s.notes.id, 0]]);
    expect(body.visits[0].visit_id).toBe(s.annFirst);
    expect(body.visits[0].file_name).toBe(s.file.name);
    expect(body.visits[0].events.map((e) => [e.page, e.ms]).sort()).toEqual([[1, 400], [1, 600], [3, 3000]].sort());
    expect(body.visits[1].events).toMatchObject([{ page: 1, ms: 2000 }]);
  });

  it("refuses a visitor of another link, another user, and no token", async () => {
    const s = await scenario();
    const elsewhere = await createEngagementScene();
    const stranger = await createVisitor(elsewhere.share.id);
    expectError(await timeline(s.share.id, stranger.visitor.id, s.owner.token), 404, "not_found");
    expectError(await timeline(elsewhere.share.id, stranger.visitor.id, s.owner.token), 404, "not_found");
    expectError(await timeline(s.share.id, s.ann.visitor.id, s.other.token), 404, "not_found");
    expectError(await timeline(s.share.id, s.ann.visitor.id), 401, "unauthorized");
  });
});

describe("GET /shares/analytics", () => {
  it("sums the caller's own links, with 30 days of daily figures (past days from the daily table, today live)", async () => {
    const s = await scenario();
    const db = await getDb();
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await db.insert(linkEngagementDays).values({ shareId: s.share.id, day: yesterday, visits: 7, visitors: 5, ms: 100 });
    const res = await summary(s.owner.token);
    expect(res.status, res.text).toBe(200);
    const body = res.body as LinksAnalyticsJson;
    expect(body.links).toEqual([{ share_id: s.share.id, name: s.share.name ?? null, key: s.share.key, visits: 4, visitors: 2, total_ms: 12_000, last_visit_at: expect.any(String) }]);
    expect(body.daily).toHaveLength(30);
    expect(body.daily.at(-1)).toEqual({ date: today(), visits: 4, visitors: 2 });
    expect(body.daily.at(-2)).toEqual({ date: yesterday, visits: 7, visitors: 5 });
    expect(body.daily.slice(0, -2).every((d) => d.visits === 0)).toBe(true);
    // Another user sees only their own links.
    const other = await summary(s.other.token);
    expect(other.body.links).toEqual([]);
    expect(other.body.daily.at(-1)).toEqual({ date: today(), visits: 0, visitors: 0 });
    expectError(await summary(), 401, "unauthorized");
  });

  it("lists a link without visits with zeros", async () => {
    const user = await createTestUser();
    const { share, owner } = await createEngagementScene();
    expect((await summary(owner.token)).body.links).toEqual([expect.objectContaining({ share_id: share.id, visits: 0, visitors: 0, total_ms: 0, last_visit_at: null })]);
    expect((await summary(user.token)).body.links).toEqual([]);
  });
});
