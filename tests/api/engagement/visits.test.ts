import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { linkPageEvents, linkVisitPages, linkVisitors, linkVisits, shares } from "@/db/schema";
import { MAX_ENTRY_MS, MAX_PAGE_ENTRIES } from "@/lib/contracts/engagement";
import { PAGE_BATCHES_PER_MINUTE } from "@/lib/server/engagement/visits/pages-throttle";
import { OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { createEngagementScene, createVisitor } from "../../helpers/engagement";
import { call, expectError } from "../../helpers/http";
import { openVisit, pagesRoute, sendPages } from "./engagement-calls";

beforeAll(openDatabase, OPEN_TIMEOUT);

/** A fresh client address per test, so the per-address throttle of one test never slows another. */
const addr = () => `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

async function visitPages(visitId: number) {
  const db = await getDb();
  return (await db.select({ page: linkVisitPages.page, ms: linkVisitPages.ms }).from(linkVisitPages).where(eq(linkVisitPages.visitId, visitId))).sort((a, b) => a.page - b.page);
}

describe("POST /share/key/(key)/visits", () => {
  it("opens a visit of a document of the link for the token's visitor, and moves the visitor's last_at", async () => {
    const { share, doc } = await createEngagementScene();
    const { visitor, token } = await createVisitor(share.id);
    const res = await openVisit(share.key, token, doc.id);
    expect(res.status, res.text).toBe(201);
    expect(Object.keys(res.body)).toEqual(["visit_id"]);
    const db = await getDb();
    const [visit] = await db.select().from(linkVisits).where(eq(linkVisits.id, res.body.visit_id));
    expect(visit).toMatchObject({ shareId: share.id, visitorId: visitor.id, fileId: doc.id });
    const [after] = await db.select().from(linkVisitors).where(eq(linkVisitors.id, visitor.id));
    expect(after.lastAt.getTime()).toBeGreaterThan(visitor.lastAt.getTime());
  });

  it("refuses a file outside the link (404), a request without a visitor's token (401) and an ended link (410)", async () => {
    const { share, doc, outside } = await createEngagementScene();
    const { token } = await createVisitor(share.id);
    expectError(await openVisit(share.key, token, outside.id), 404, "not_found");
    expectError(await openVisit(share.key, undefined, doc.id), 401, "unauthorized");
    expectError(await openVisit(share.key, "not-a-token", doc.id), 401, "unauthorized");
    const expired = await createVisitor(share.id, { expired: true });
    expectError(await openVisit(share.key, expired.token, doc.id), 401, "unauthorized");
    // A visitor's token of another link opens nothing here.
    const elsewhere = await createEngagementScene();
    const stranger = await createVisitor(elsewhere.share.id);
    expectError(await openVisit(share.key, stranger.token, doc.id), 401, "unauthorized");
    await (await getDb()).update(shares).set({ expirationDate: new Date(Date.now() - 1000) }).where(eq(shares.id, share.id));
    expectError(await openVisit(share.key, token, doc.id), 410, "link_expired");
  });

  it("refuses hostile file ids (400)", async () => {
    const { share } = await createEngagementScene();
    const { token } = await createVisitor(share.id);
    expectError(await openVisit(share.key, token, "1\u0000" as unknown as number), 400);
    expectError(await openVisit(share.key, token, "\u202e7" as unknown as number), 400);
    expectError(await openVisit(share.key, token, -1), 400);
  });
});

describe("POST /share/key/(key)/visits/(visitId)/pages", () => {
  it("appends one event per entry and adds the time per page, across batches", async () => {
    const { share, doc } = await createEngagementScene();
    const { token } = await createVisitor(share.id);
    const visitId = (await openVisit(share.key, token, doc.id)).body.visit_id as number;
    const ip = addr();
    const first = await sendPages(share.key, token, visitId, [{ page: 1, ms: 1000 }, { page: 3, ms: 250 }, { page: 1, ms: 500 }], ip);
    expect(first.status, first.text).toBe(204);
    expect(await visitPages(visitId)).toEqual([{ page: 1, ms: 1500 }, { page: 3, ms: 250 }]);
    expect((await sendPages(share.key, token, visitId, [{ page: 1, ms: 100 }], ip)).status).toBe(204);
    expect(await visitPages(visitId)).toEqual([{ page: 1, ms: 1600 }, { page: 3, ms: 250 }]);
    const events = await (await getDb()).select().from(linkPageEvents).where(eq(linkPageEvents.visitId, visitId));
    expect(events.map((e) => [e.page, e.ms]).sort((a, b) => a[0] - b[0] || a[1] - b[1])).toEqual([[1, 100], [1, 500], [1, 1000], [3, 250]]);
  });

  it("takes the access token from the query and a text/plain body, as navigator.sendBeacon sends them", async () => {
    const { share, doc } = await createEngagementScene();
    const { token } = await createVisitor(share.id);
    const visitId = (await openVisit(share.key, token, doc.id)).body.visit_id as number;
    const res = await call(pagesRoute.POST, {
      method: "POST",
      params: { key: share.key, visitId: String(visitId) },
      query: { access_token: token },
      headers: { "content-type": "text/plain;charset=UTF-8", "x-forwarded-for": addr() },
      rawBody: JSON.stringify({ pages: [{ page: 2, ms: 42 }] }),
    });
    expect(res.status, res.text).toBe(204);
    expect(await visitPages(visitId)).toEqual([{ page: 2, ms: 42 }]);
  });

  it("answers 404 to another visitor's token, another link's visit or an unknown visit, and 401 without a token", async () => {
    const { share, doc } = await createEngagementScene();
    const { token } = await createVisitor(share.id);
    const other = await createVisitor(share.id);
    const visitId = (await openVisit(share.key, token, doc.id)).body.visit_id as number;
    expectError(await sendPages(share.key, other.token, visitId, [{ page: 1, ms: 10 }], addr()), 404, "not_found");
    expectError(await sendPages(share.key, undefined, visitId, [{ page: 1, ms: 10 }], addr()), 401, "unauthorized");
    expectError(await sendPages(share.key, token, visitId + 1_000_000, [{ page: 1, ms: 10 }], addr()), 404, "not_found");
    const elsewhere = await createEngagementScene();
    const stranger = await createVisitor(elsewhere.share.id);
    const theirs = (await openVisit(elsewhere.share.key, stranger.token, elsewhere.doc.id)).body.visit_id as number;
    expectError(await sendPages(share.key, token, theirs, [{ page: 1, ms: 10 }], addr()), 404, "not_found");
    expect(await visitPages(visitId)).toEqual([]);
  });

  it("refuses pages the document does not have, too many entries, too much time, and a body over 64 KiB", async () => {
    const { share, doc, notes } = await createEngagementScene();
    const { token } = await createVisitor(share.id);
    const visitId = (await openVisit(share.key, token, doc.id)).body.visit_id as number;
    expectError(await sendPages(share.key, token, visitId, [{ page: 4, ms: 10 }], addr()), 400, "invalid_request");
    expectError(await sendPages(share.key, token, visitId, [{ page: 0, ms: 10 }], addr()), 400);
    expectError(await sendPages(share.key, token, visitId, [], addr()), 400);
    const many = Array.from({ length: MAX_PAGE_ENTRIES + 1 }, () => ({ page: 1, ms: 1 }));
    expectError(await sendPages(share.key, token, visitId, many, addr()), 400);
    expect((await sendPages(share.key, token, visitId, many.slice(1), addr())).status).toBe(204);
    expectError(await sendPages(share.key, token, visitId, [{ page: 1, ms: MAX_ENTRY_MS + 1 }], addr()), 400);
    expectError(await sendPages(share.key, token, visitId, [{ page: 1, ms: -5 }], addr()), 400);
    expectError(await sendPages(share.key, token, visitId, [{ page: 1.5, ms: 5 }], addr()), 400);
    const big = await call(pagesRoute.POST, {
      method: "POST",
      params: { key: share.key, visitId: String(visitId) },
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "x-forwarded-for": addr() },
      rawBody: JSON.stringify({ pages: [{ page: 1, ms: 1 }], pad: "x".repeat(1024 * 1024) }),
    });
    expectError(big, 413, "payload_too_large");
    // Over this route's 64 KiB, under the 1 MiB of other JSON bodies.
    const over = await call(pagesRoute.POST, {
      method: "POST",
      params: { key: share.key, visitId: String(visitId) },
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "x-forwarded-for": addr() },
      rawBody: JSON.stringify({ pages: [{ page: 1, ms: 1 }], pad: "x".repeat(70 * 1024) }),
    });
    expectError(over, 413, "payload_too_large");
    // The second document has 2 pages.
    const second = (await openVisit(share.key, token, notes.id)).body.visit_id as number;
    expectError(await sendPages(share.key, token, second, [{ page: 3, ms: 10 }], addr()), 400, "invalid_request");
    expect((await sendPages(share.key, token, second, [{ page: 2, ms: 10 }], addr())).status).toBe(204);
    expect(await visitPages(visitId)).toEqual([{ page: 1, ms: MAX_PAGE_ENTRIES }]);
  });

  it(`allows ${PAGE_BATCHES_PER_MINUTE} batches a minute per link and address, then 429 with Retry-After`, async () => {
    const { share, doc } = await createEngagementScene();
    const { token } = await createVisitor(share.id);
    const visitId = (await openVisit(share.key, token, doc.id)).body.visit_id as number;
    const ip = addr();
    for (let i = 0; i < PAGE_BATCHES_PER_MINUTE; i++) expect((await sendPages(share.key, token, visitId, [{ page: 1, ms: 1 }], ip)).status).toBe(204);
    const refused = await sendPages(share.key, token, visitId, [{ page: 1, ms: 1 }], ip);
    expectError(refused, 429, "too_many_requests");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    // Another address is counted apart; the refused batch recorded nothing.
    expect((await sendPages(share.key, token, visitId, [{ page: 1, ms: 1 }], addr())).status).toBe(204);
    expect(await visitPages(visitId)).toEqual([{ page: 1, ms: PAGE_BATCHES_PER_MINUTE + 1 }]);
  });

  it("answers 410 once the link has ended", async () => {
    const { share, doc } = await createEngagementScene();
    const { token } = await createVisitor(share.id);
    const visitId = (await openVisit(share.key, token, doc.id)).body.visit_id as number;
    await (await getDb()).update(shares).set({ expirationDate: new Date(Date.now() - 1000) }).where(eq(shares.id, share.id));
    expectError(await sendPages(share.key, token, visitId, [{ page: 1, ms: 10 }], addr()), 410, "link_expired");
    const [count] = await (await getDb()).select().from(linkPageEvents).where(and(eq(linkPageEvents.visitId, visitId)));
    expect(count).toBeUndefined();
  });
});
