import { beforeAll, describe, expect, it } from "vitest";
import * as logRoute from "@/app/api/log/[logId]/route";
import * as logsRoute from "@/app/api/logs/route";
import { getDb } from "@/db";
import { logs } from "@/db/schema";
import { logEntryResponse, type LogObjectType } from "@/lib/contracts/logs";
import { writeLog } from "@/lib/server/audit/write-log";
import { createAdmin, createTestUser, unique } from "../../helpers/factories";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";

// Opening the database (a fresh PGlite takes seconds) belongs to setup, not to the first test.
beforeAll(async () => {
  await getDb();
});

const request = { ip: "10.1.2.3", userAgent: "vitest" };

/** Entries under a fresh object_type, so parallel tests never see each other's. */
async function seed() {
  const db = await getDb();
  const objectType = unique("type_");
  const actor = await createTestUser({ firstname: "Log", lastname: "Writer" });
  const day = (d: number) => new Date(Date.UTC(2024, 0, d, 12));
  const [a, b, c, d] = await db
    .insert(logs)
    .values([
      { userId: actor.id, userName: "Log Writer", date: day(1), message: "first", ip: "10.0.0.1", userAgent: "ua", type: "ADMLLOG_INSERT", objectType, objectId: "11", object: "one" },
      { userId: actor.id, userName: "Log Writer", date: day(2), message: "second", type: "ADMLLOG_UPDATE", statut: "ADMLLOG_ERROR", objectType, objectId: "12", object: "two" },
      { userId: null, userName: "guest", date: day(3), message: "third", type: "ADMLLOG_LOGIN_FAILED", statut: "ADMLLOG_ERROR", objectType, objectId: "11" },
      { userId: actor.id, userName: "Log Writer", date: day(4), message: "fourth", type: "ADMLLOG_DELETE", objectType, objectId: "13" },
    ])
    .returning();
  return { objectType, actor, ids: { a: a.id, b: b.id, c: c.id, d: d.id } };
}

describe("GET /api/logs", () => {
  it("lists entries newest first in the contract's envelope and shape", async () => {
    const admin = await createAdmin();
    const { objectType, actor, ids } = await seed();
    const res = await call(logsRoute.GET, { token: admin.token, query: { object_type: objectType } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ offset_start: 0, nb_objets: 4, nb_objects: 4, nb_total_objects: 4 });
    expect(res.body.objects.map((e: { id: number }) => e.id)).toEqual([ids.d, ids.c, ids.b, ids.a]);
    const first = logEntryResponse.parse(res.body.objects[3]);
    expect(first).toEqual({
      id: ids.a,
      user_id: String(actor.id),
      user: "Log Writer",
      date: "2024-01-01T12:00:00.000Z",
      message: "first",
      ip: "10.0.0.1",
      user_agent: "ua",
      type: "ADMLLOG_INSERT",
      statut: "ADMLLOG_OK",
      object_id: "11",
      object_type: objectType,
      object: "one",
    });
    // The unauthenticated actor appears as the guest account.
    expect(res.body.objects[1]).toMatchObject({ user_id: "0", user: "guest" });
  });

  it("filters by type, statut, user, object and dates, and pages", async () => {
    const admin = await createAdmin();
    const { objectType, actor, ids } = await seed();
    const list = async (query: Record<string, string | number>) => {
      const res = await call(logsRoute.GET, { token: admin.token, query: { object_type: objectType, ...query } });
      expect(res.status, res.text).toBe(200);
      return res.body;
    };
    const idsOf = (body: { objects: { id: number }[] }) => body.objects.map((e) => e.id);
    expect(idsOf(await list({ type: "ADMLLOG_UPDATE" }))).toEqual([ids.b]);
    expect(idsOf(await list({ type: "ADMLLOG_UPDATE,ADMLLOG_DELETE" }))).toEqual([ids.d, ids.b]);
    expect(idsOf(await list({ statut: "ADMLLOG_ERROR" }))).toEqual([ids.c, ids.b]);
    expect(idsOf(await list({ user_id: actor.id }))).toEqual([ids.d, ids.b, ids.a]);
    expect(idsOf(await list({ user_id: "0" }))).toEqual([ids.c]);
    expect(idsOf(await list({ object_id: "11" }))).toEqual([ids.c, ids.a]);
    expect(idsOf(await list({ date_start: "2024-01-02T00:00:00Z", date_end: "2024-01-03T23:59:59Z" }))).toEqual([ids.c, ids.b]);
    expect(idsOf(await list({ date_start: Math.floor(Date.UTC(2024, 0, 4) / 1000) }))).toEqual([ids.d]);
    const page = await list({ offset_start: 1, nb_objects: 2 });
    expect(page).toMatchObject({ offset_start: 1, nb_objects: 2, nb_total_objects: 4 });
    expect(idsOf(page)).toEqual([ids.c, ids.b]);
  });

  it("filters on several people at once (user_id as a comma-separated list, the guest account included)", async () => {
    const admin = await createAdmin();
    const { objectType, actor, ids } = await seed();
    const other = await createTestUser();
    const db = await getDb();
    const [mine] = await db.insert(logs).values({ userId: other.id, userName: "Other", date: new Date(Date.UTC(2024, 0, 5, 12)), message: "fifth", type: "ADMLLOG_UPDATE", objectType, objectId: "14" }).returning();
    const list = async (user_id: string) => {
      const res = await call(logsRoute.GET, { token: admin.token, query: { object_type: objectType, user_id } });
      expect(res.status, res.text).toBe(200);
      return res.body.objects.map((e: { id: number }) => e.id);
    };
    expect(await list(`${other.id}`)).toEqual([mine.id]);
    expect(await list(`${actor.id},${other.id}`)).toEqual([mine.id, ids.d, ids.b, ids.a]);
    expect(await list(`0, ${other.id}`)).toEqual([mine.id, ids.c]);
    expect(await list(`guest,${actor.id},${actor.id}`)).toEqual([ids.d, ids.c, ids.b, ids.a]);
    // Someone with no entry under this object type: nothing, not everything.
    expect(await list(`${admin.id}`)).toEqual([]);
  });

  it("answers 400 for a bad list of people", async () => {
    const admin = await createAdmin();
    for (const user_id of ["1,abc", ",", "1,-2", "1;2", Array.from({ length: 51 }, (_, i) => i + 1).join(",")]) {
      expectError(await call(logsRoute.GET, { token: admin.token, query: { user_id } }), 400, "invalid_request");
    }
  });

  it("refuses the list of people to others than administrators", async () => {
    const { actor } = await seed();
    await expectAuthRequired(logsRoute.GET, { query: { user_id: `${actor.id},0` } });
    // The actor asking about their own entries is still not an administrator.
    expectError(await call(logsRoute.GET, { token: actor.token, query: { user_id: `${actor.id},0` } }), 403, "forbidden");
    const manager = await createTestUser({ role: 4 });
    expectError(await call(logsRoute.GET, { token: manager.token, query: { user_id: `${actor.id}` } }), 403, "forbidden");
  });

  it("shows entries written by the services", async () => {
    const admin = await createAdmin();
    const db = await getDb();
    const objectType = unique("svc_");
    // A fresh object type keeps parallel tests apart; the services themselves only write LOG_OBJECT_TYPES.
    await writeLog(db, { actor: admin, request }, { type: "ADMLLOG_CONFIG", message: "Changed something", objectType: objectType as LogObjectType, objectId: 5, object: "x" });
    const res = await call(logsRoute.GET, { token: admin.token, query: { object_type: objectType } });
    expect(res.body.objects).toEqual([expect.objectContaining({ user_id: String(admin.id), ip: "10.1.2.3", user_agent: "vitest", object_id: "5", type: "ADMLLOG_CONFIG" })]);
  });

  it("answers 400 for bad filters", async () => {
    const admin = await createAdmin();
    expectError(await call(logsRoute.GET, { token: admin.token, query: { statut: "MAYBE" } }), 400, "invalid_request");
    expectError(await call(logsRoute.GET, { token: admin.token, query: { date_start: "yesterday" } }), 400, "invalid_request");
    expectError(await call(logsRoute.GET, { token: admin.token, query: { nb_objects: -1 } }), 400, "invalid_request");
  });

  it("is for administrators only", async () => {
    await expectAuthRequired(logsRoute.GET, {});
    for (const role of [1, 2, 4]) {
      const user = await createTestUser({ role });
      expectError(await call(logsRoute.GET, { token: user.token }), 403, "forbidden");
    }
    expectError(await call(logsRoute.POST, { method: "POST", body: {} }), 405, "method_not_allowed");
  });
});

describe("GET /api/log/(id)", () => {
  it("returns one entry, 404 when unknown, 400 for a bad id", async () => {
    const admin = await createAdmin();
    const { ids, objectType } = await seed();
    const res = await call(logRoute.GET, { token: admin.token, params: { logId: String(ids.b) } });
    expect(res.status).toBe(200);
    expect(logEntryResponse.parse(res.body)).toMatchObject({ id: ids.b, message: "second", statut: "ADMLLOG_ERROR", object_type: objectType });
    expectError(await call(logRoute.GET, { token: admin.token, params: { logId: "2000000000" } }), 404, "not_found");
    expectError(await call(logRoute.GET, { token: admin.token, params: { logId: "abc" } }), 400, "invalid_request");
  });

  it("is for administrators only", async () => {
    const { ids } = await seed();
    await expectAuthRequired(logRoute.GET, { params: { logId: String(ids.a) } });
    const user = await createTestUser({ role: 4 });
    expectError(await call(logRoute.GET, { token: user.token, params: { logId: String(ids.a) } }), 403, "forbidden");
  });
});
