import { and, eq, isNull, ne } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as accountRoute from "@/app/api/account/route";
import * as authRoute from "@/app/api/auth/route";
import { getDb } from "@/db";
import { sessions, users } from "@/db/schema";
import { connect } from "@/lib/server/auth/connect";
import { hashToken, newToken } from "@/lib/server/auth/tokens";
import { deleteOptions } from "@/lib/server/options/delete-options";
import { updateOptions } from "@/lib/server/options/update-options";
import { createAdmin, createTestGroup, createTestUser, latestLog, PASSWORD } from "../../helpers/factories";
import { call, expectError } from "../../helpers/http";
import { inRolledBackTransaction, openDatabase, serviceCtx } from "../users/fixtures";
import { daysButToday, from, putOptions, storeOptions, windowAroundNow, windowAwayFromNow } from "./fixtures";

beforeAll(openDatabase);

const signIn = (login: string, ip: string) => call(authRoute.POST, { method: "POST", body: { user: login, password: PASSWORD }, headers: from(ip) });
const readAccount = (token: string, headers: Record<string, string> = {}) => call(accountRoute.GET, { token, headers });

function expectRefused(res: Awaited<ReturnType<typeof call>>, reason: string) {
  expectError(res, 403, "forbidden");
  expect(res.body.details).toEqual({ reason });
}

describe("connection options at sign-in and on every request", () => {
  it("keeps a user restricted to 10.0.0.0/8 out from 127.0.0.1, and stops a live token at its next request", async () => {
    const admin = await createAdmin();
    const user = await createTestUser();
    expect((await readAccount(user.token, from("127.0.0.1"))).status).toBe(200);

    expect((await putOptions(admin.token, user.id, { ips: ["10.0.0.0/8"] })).status).toBe(200);

    expectRefused(await readAccount(user.token, from("127.0.0.1")), "ip_not_allowed");
    // An address the server cannot read matches no whitelist.
    expectRefused(await readAccount(user.token), "ip_not_allowed");
    expect((await readAccount(user.token, from("10.20.30.40"))).status).toBe(200);

    expectRefused(await signIn(user.login, "127.0.0.1"), "ip_not_allowed");
    expect(await latestLog("user", user.id, "ADMLLOG_LOGIN_FAILED")).toMatchObject({ statut: "ADMLLOG_ERROR", ip: "127.0.0.1" });
    const allowed = await signIn(user.login, "10.1.2.3");
    expect(allowed.status, allowed.text).toBe(200);
    expect((await readAccount(allowed.body.token, from("10.1.2.3"))).status).toBe(200);

    // The refusal does not end the session: back on an allowed address, the token works again.
    expect((await readAccount(user.token, from("10.0.0.1"))).status).toBe(200);
  });

  it("matches IPv6 ranges and refuses every address with an empty list", async () => {
    const user = await createTestUser();
    await storeOptions(user.id, { ips: ["2001:db8::/32", "192.0.2.1"] });
    expect((await readAccount(user.token, from("2001:db8::5"))).status).toBe(200);
    expect((await readAccount(user.token, from("192.0.2.1"))).status).toBe(200);
    expectRefused(await readAccount(user.token, from("2001:db9::1")), "ip_not_allowed");
    expectRefused(await readAccount(user.token, from("192.0.2.2")), "ip_not_allowed");

    await storeOptions(user.id, { ips: [] });
    expectRefused(await readAccount(user.token, from("192.0.2.1")), "ip_not_allowed");
  });

  it("refuses on a day the mask leaves out (GMT)", async () => {
    const user = await createTestUser();
    await storeOptions(user.id, { days: daysButToday() });
    expectRefused(await readAccount(user.token, from("127.0.0.1")), "day_not_allowed");
    expectRefused(await signIn(user.login, "127.0.0.1"), "day_not_allowed");
    await storeOptions(user.id, { days: 255 & ~daysButToday() });
    expect((await readAccount(user.token, from("127.0.0.1"))).status).toBe(200);
  });

  it("refuses outside the hour window (GMT), windows across midnight included", async () => {
    const user = await createTestUser();
    await storeOptions(user.id, windowAwayFromNow());
    expectRefused(await readAccount(user.token, from("127.0.0.1")), "hour_not_allowed");
    expectRefused(await signIn(user.login, "127.0.0.1"), "hour_not_allowed");

    await storeOptions(user.id, windowAroundNow());
    expect((await readAccount(user.token, from("127.0.0.1"))).status).toBe(200);
    // The same window turned inside out (from its end to its start, across midnight) excludes now.
    const around = windowAroundNow();
    await storeOptions(user.id, { hourStart: around.hourEnd, hourEnd: around.hourStart });
    expectRefused(await readAccount(user.token, from("127.0.0.1")), "hour_not_allowed");
  });

  it("applies the groups' options to a user without a row, and the user's own row over them", async () => {
    const user = await createTestUser();
    const restricted = await createTestGroup({ members: [user.id] });
    await createTestGroup({ members: [user.id] });
    await storeOptions(restricted.id, { ips: ["10.0.0.0/8"] });
    expectRefused(await readAccount(user.token, from("127.0.0.1")), "ip_not_allowed");
    expect((await readAccount(user.token, from("10.0.0.9"))).status).toBe(200);

    await storeOptions(user.id, { ips: null });
    expect((await readAccount(user.token, from("127.0.0.1"))).status).toBe(200);
  });

  it("blocks web sessions when oauth_blocked has bit 1, leaving API tokens alone", async () => {
    const user = await createTestUser();
    const db = await getDb();
    const webToken = newToken();
    await db.insert(sessions).values({ tokenHash: hashToken(webToken), userId: user.id, kind: "web" });
    await storeOptions(user.id, { oauthBlocked: 1 });

    expectRefused(await readAccount(webToken, from("127.0.0.1")), "web_not_allowed");
    expect((await readAccount(user.token, from("127.0.0.1"))).status).toBe(200);
    const request = { ip: "127.0.0.1", userAgent: "vitest" };
    await expect(connect({ db, actor: null, request }, { user: user.login, password: PASSWORD }, "web")).rejects.toMatchObject({
      code: "forbidden",
      details: { reason: "web_not_allowed" },
    });
    expect((await signIn(user.login, "127.0.0.1")).status).toBe(200);

    // Mobile and mail connector bits are stored for applications that do not exist yet.
    await storeOptions(user.id, { oauthBlocked: 6 });
    expect((await readAccount(webToken, from("127.0.0.1"))).status).toBe(200);
  });
});

// The rule depends on every administrator of the platform, so each case is staged in a rolled-back
// transaction where the other administrators are made inactive.
describe("never locking every administrator out", () => {
  const LOCKED_OUT = { code: "conflict", details: { reason: "administrators_locked_out" } };

  async function aloneAsAdmin(tx: Parameters<Parameters<typeof inRolledBackTransaction>[0]>[0], ...keep: number[]) {
    for (const id of keep) await tx.update(users).set({ active: true }).where(eq(users.id, id));
    const others = and(eq(users.role, 3), isNull(users.deletedAt), ...keep.map((id) => ne(users.id, id)));
    await tx.update(users).set({ active: false }).where(others);
  }

  it("refuses a change after which no active administrator could connect from the caller's address", async () => {
    const admin = await createAdmin();
    const group = await createTestGroup({ members: [admin.id] });
    await inRolledBackTransaction(async (tx) => {
      await aloneAsAdmin(tx, admin.id);
      const ctx = serviceCtx(tx, admin); // calling from 127.0.0.1
      await expect(updateOptions(ctx, admin.id, { ips: ["10.0.0.0/8"] })).rejects.toMatchObject(LOCKED_OUT);
      await expect(updateOptions(ctx, admin.id, { ips: [] })).rejects.toMatchObject(LOCKED_OUT);
      await expect(updateOptions(ctx, admin.id, { days: daysButToday() })).rejects.toMatchObject(LOCKED_OUT);
      const away = windowAwayFromNow();
      await expect(updateOptions(ctx, admin.id, { hour_start: away.hourStart, hour_end: away.hourEnd })).rejects.toMatchObject(LOCKED_OUT);
      // Through a group the administrator belongs to, too (the refused changes above left no row).
      await expect(updateOptions(ctx, group.id, { ips: ["10.0.0.0/8"] })).rejects.toMatchObject(LOCKED_OUT);

      // Allowed: the caller's own address stays in, or the administrator's own row overrides the group's.
      await expect(updateOptions(ctx, admin.id, { ips: ["127.0.0.0/8", "10.0.0.0/8"] })).resolves.toMatchObject({ ips: ["127.0.0.0/8", "10.0.0.0/8"] });
      await expect(updateOptions(ctx, group.id, { ips: ["10.0.0.0/8"] })).resolves.toMatchObject({ ips: ["10.0.0.0/8"] });
      // Removing that row would leave the group's restriction in force: refused as well.
      await expect(deleteOptions(ctx, admin.id)).rejects.toMatchObject(LOCKED_OUT);
    });
  });

  it("lets one administrator be restricted while another can still connect", async () => {
    const first = await createAdmin();
    const second = await createAdmin();
    await inRolledBackTransaction(async (tx) => {
      await aloneAsAdmin(tx, first.id, second.id);
      const ctx = serviceCtx(tx, second);
      await expect(updateOptions(ctx, first.id, { ips: ["10.0.0.0/8"] })).resolves.toMatchObject({ ips: ["10.0.0.0/8"] });
      await expect(updateOptions(ctx, second.id, { ips: ["10.0.0.0/8"] })).rejects.toMatchObject(LOCKED_OUT);
    });
  });

  it("applies to administrators like anyone (over HTTP, other administrators keep the platform reachable)", async () => {
    const admin = await createAdmin();
    const res = await putOptions(admin.token, admin.id, { ips: ["127.0.0.1"] }, "127.0.0.1");
    expect(res.status, res.text).toBe(200);
    expect((await readAccount(admin.token, from("127.0.0.1"))).status).toBe(200);
    expectRefused(await readAccount(admin.token, from("127.0.0.2")), "ip_not_allowed");
  });
});
