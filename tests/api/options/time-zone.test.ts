import { and, eq, inArray, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as accountRoute from "@/app/api/account/route";
import * as authRoute from "@/app/api/auth/route";
import * as configRoute from "@/app/api/config/route";
import { getDb } from "@/db";
import { connectionOptions, users } from "@/db/schema";
import { configResponse } from "@/lib/contracts/config";
import { optionsResponse } from "@/lib/contracts/options";
import { forgetCachedConfig } from "@/lib/server/config/platform-config";
import { zonedClock } from "@/lib/contracts/time-zones";
import { createAdmin, createTestUser, PASSWORD, type TestUser } from "../../helpers/factories";
import { call, expectError } from "../../helpers/http";
import { onOwnDatabase } from "../../helpers/own-database";
import { expectAuthRequired, expectRefusedFor } from "../../helpers/security";
import { from, getOptions, putOptions, storeOptions } from "./fixtures";

// The platform's time zone applies to every connection: on a database of its own.
onOwnDatabase("time_zone");

// Kathmandu is GMT+05:45 all year: a window around the present GMT minute is far from its wall clock.
const ZONE = "Asia/Kathmandu";
let admin: TestUser;

beforeAll(async () => {
  await getDb();
  admin = await createAdmin();
}, 180_000);
afterAll(async () => {
  forgetCachedConfig();
});

const put = (body: unknown, token = admin.token) => call(configRoute.PUT, { method: "PUT", token, body });
const readAccount = (token: string) => call(accountRoute.GET, { token, headers: from("127.0.0.1") });
const signIn = (login: string) => call(authRoute.POST, { method: "POST", body: { user: login, password: PASSWORD }, headers: from("127.0.0.1") });

const pad = (n: number) => String(n).padStart(2, "0");
const hhmm = (minutes: number) => {
  const m = ((minutes % 1440) + 1440) % 1440;
  return `${pad(Math.floor(m / 60))}:${pad(m % 60)}`;
};
/** A two-hour window around the present minute of `zone`'s wall clock. */
const windowAroundNowIn = (zone: string) => {
  const { minute } = zonedClock(new Date(), zone);
  return { hourStart: hhmm(minute - 60), hourEnd: hhmm(minute + 60) };
};

describe("the platform time zone (configuration time_zone)", () => {
  it("is UTC by default, and takes IANA names in their usual spelling", async () => {
    const read = await call(configRoute.GET, { token: admin.token });
    expect(configResponse.parse(read.body).time_zone).toBe("UTC");
    const res = await put({ time_zone: "europe/paris" });
    expect(res.status, res.text).toBe(200);
    expect(res.body.time_zone).toBe("Europe/Paris");
    expect((await put({ time_zone: "UTC" })).body.time_zone).toBe("UTC");
  });

  it("refuses unknown zones, offsets, NUL and bidi characters with 400, changing nothing", async () => {
    for (const time_zone of ["Mars/Olympus_Mons", "", "+01:00", "GMT+1 ", "Europe/Paris\u0000", "Europe/\u202EParis", "Europe/Paris\u2066", "x".repeat(65), 5]) {
      const res = await put({ time_zone });
      expectError(res, 400, "invalid_request");
      expect(res.body.details?.[0]?.path ?? "").toMatch(/time_zone/);
    }
    expect((await call(configRoute.GET, { token: admin.token })).body.time_zone).toBe("UTC");
  });

  it("is changed by administrators only: users and managers get 403, no token 401", async () => {
    const user = await createTestUser();
    const manager = await createTestUser({ role: 4 });
    const options = { method: "PUT", body: { time_zone: ZONE } };
    await expectRefusedFor(user.token, configRoute.PUT, options);
    await expectRefusedFor(manager.token, configRoute.PUT, options);
    await expectAuthRequired(configRoute.PUT, options);
    expect((await call(configRoute.GET, { token: admin.token })).body.time_zone).toBe("UTC");
  });
});

describe("connection hours in the platform's time zone", () => {
  it("are enforced on the zone's wall clock, on each request and at sign-in, and shown with the zone", async () => {
    const user = await createTestUser();
    const gmtWindow = windowAroundNowIn("UTC");
    await storeOptions(user.id, gmtWindow);
    expect((await readAccount(user.token)).status).toBe(200);

    expect((await put({ time_zone: ZONE })).status).toBe(200);
    // The same stored hours now mean Kathmandu time: the present is 5 h 45 min past that window.
    const refused = await readAccount(user.token);
    expectError(refused, 403, "forbidden");
    expect(refused.body.details).toEqual({ reason: "hour_not_allowed" });
    expectError(await signIn(user.login), 403, "forbidden");

    const local = windowAroundNowIn(ZONE);
    const saved = await putOptions(admin.token, user.id, { hour_start: local.hourStart, hour_end: local.hourEnd });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toMatchObject({ hour_start: local.hourStart, hour_end: local.hourEnd, time_zone: ZONE });
    expect((await readAccount(user.token)).status).toBe(200);
    expect((await signIn(user.login)).status).toBe(200);
    const shown = await getOptions(admin.token, user.id);
    expect(optionsResponse.strict().parse(shown.body)).toMatchObject({ time_zone: ZONE, hour_start: local.hourStart });

    expect((await put({ time_zone: "UTC" })).status).toBe(200);
    expectError(await readAccount(user.token), 403, "forbidden");
  });

  it("refuses a change of zone after which no administrator could connect (409), keeping the zone", async () => {
    const db = await getDb();
    const admins = await db.select({ id: users.id }).from(users).where(and(eq(users.role, 3), eq(users.active, true), isNull(users.deletedAt)));
    const ids = admins.map((a) => a.id);
    try {
      for (const id of ids) await storeOptions(id, windowAroundNowIn("UTC"));
      const res = await put({ time_zone: ZONE });
      expectError(res, 409, "conflict");
      expect(res.body.details).toEqual({ reason: "administrators_locked_out" });
      expect((await call(configRoute.GET, { token: admin.token })).body.time_zone).toBe("UTC");
    } finally {
      await db.delete(connectionOptions).where(inArray(connectionOptions.targetId, ids));
    }
    expect((await put({ time_zone: ZONE })).status).toBe(200);
    expect((await put({ time_zone: "UTC" })).status).toBe(200);
  });
});
