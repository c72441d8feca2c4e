import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as optionRoute from "@/app/api/option/[targetId]/route";
import { getDb } from "@/db";
import { connectionOptions, groupManagers, groupMembers } from "@/db/schema";
import { optionsResponse } from "@/lib/contracts/options";
import { createAdmin, createTestGroup, createTestUser, latestLog } from "../../helpers/factories";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired, expectRefusedFor } from "../../helpers/security";
import { createManagedTeam, openDatabase } from "../users/fixtures";
import { at, deleteOptions, getOptions, putOptions, storeOptions } from "./fixtures";

beforeAll(openDatabase);

async function storedRow(targetId: number) {
  const db = await getDb();
  const [row] = await db.select().from(connectionOptions).where(eq(connectionOptions.targetId, targetId));
  return row;
}

describe("GET /api/option/(targetId)", () => {
  it("shows a group without a row with the defaults", async () => {
    const admin = await createAdmin();
    const group = await createTestGroup();
    const res = await getOptions(admin.token, group.id);
    expect(res.status, res.text).toBe(200);
    expect(optionsResponse.strict().parse(res.body)).toEqual({
      target_id: String(group.id),
      target: group.login,
      target_isgroup: true,
      ips: null,
      days: 255,
      hour_start: null,
      hour_end: null,
      can_netsync: true,
      oauth_blocked: 0,
      inherited: false,
      // The platform's zone, in which days and hours are read (UTC here: the contract's GMT).
      time_zone: "UTC",
    });
  });

  it("shows a user without a row the most permissive union of their groups' rows, ignoring groups without one", async () => {
    const admin = await createAdmin();
    const user = await createTestUser({ firstname: "Ada", lastname: "Lovelace" });
    const office = await createTestGroup({ members: [user.id] });
    const lab = await createTestGroup({ members: [user.id] });
    await createTestGroup({ members: [user.id] });
    await storeOptions(office.id, { ips: ["10.0.0.0/8"], days: 2, hourStart: "08:00", hourEnd: "12:00", canNetsync: false, oauthBlocked: 3 });
    await storeOptions(lab.id, { ips: ["192.168.1.0/24", "10.0.0.0/8"], days: 4, hourStart: "14:00", hourEnd: "18:00", canNetsync: false, oauthBlocked: 1 });

    const res = await getOptions(admin.token, user.id);
    expect(res.status, res.text).toBe(200);
    expect(optionsResponse.parse(res.body)).toEqual({
      target_id: String(user.id),
      target: "Ada Lovelace",
      target_isgroup: false,
      ips: ["10.0.0.0/8", "192.168.1.0/24"],
      days: 6,
      hour_start: "08:00",
      hour_end: "18:00",
      can_netsync: false,
      oauth_blocked: 1,
      inherited: true,
      time_zone: "UTC",
    });

    // One group without an address filter lifts the filter: belonging to more groups never takes away.
    await storeOptions(lab.id, { ips: null, hourStart: "22:00", hourEnd: "02:00" });
    const widened = (await getOptions(admin.token, user.id)).body;
    expect(widened).toMatchObject({ ips: null, hour_start: "22:00", hour_end: "12:00", inherited: true });
  });

  it("shows a user in no restricted group the defaults, marked inherited", async () => {
    const admin = await createAdmin();
    const user = await createTestUser();
    const res = await getOptions(admin.token, user.id);
    expect(res.body).toMatchObject({ ips: null, days: 255, hour_start: null, hour_end: null, can_netsync: true, oauth_blocked: 0, inherited: true });
  });

  it("is a 404 for an unknown or deleted target (administrators)", async () => {
    const admin = await createAdmin();
    expectError(await getOptions(admin.token, 2_147_483_000), 404, "not_found");
    const gone = await createTestUser({ deletedAt: new Date() });
    expectError(await getOptions(admin.token, gone.id), 404, "not_found");
    expectError(await call(optionRoute.GET, at(0, { token: admin.token, params: { targetId: "abc" } })), 400, "invalid_request");
  });

  it("lets users read their own options, managers those of their users and groups, and refuses anyone else", async () => {
    const { manager, member, group } = await createManagedTeam();
    const stranger = await createTestUser();
    const otherGroup = await createTestGroup({ members: [stranger.id] });

    expect((await getOptions(member.token, member.id)).status).toBe(200);
    expect((await getOptions(manager.token, member.id)).status).toBe(200);
    expect((await getOptions(manager.token, group.id)).body).toMatchObject({ target_isgroup: true, inherited: false });

    await expectRefusedFor(member.token, optionRoute.GET, at(stranger.id));
    await expectRefusedFor(member.token, optionRoute.GET, at(group.id));
    await expectRefusedFor(manager.token, optionRoute.GET, at(stranger.id));
    await expectRefusedFor(manager.token, optionRoute.GET, at(otherGroup.id));
    // Not a 404: a non-administrator learns nothing about which ids exist.
    await expectRefusedFor(manager.token, optionRoute.GET, at(2_147_483_000));
    await expectAuthRequired(optionRoute.GET, at(member.id));
  });
});

describe("PUT /api/option/(targetId)", () => {
  it("creates the explicit row of a group from the given fields, changes it partially, and logs", async () => {
    const admin = await createAdmin();
    const group = await createTestGroup();
    const first = await putOptions(admin.token, group.id, { ips: ["10.0.0.0/8", " 2001:db8::/32 ", "192.168.1.7"], hour_start: "07:30", target: "ignored" });
    expect(first.status, first.text).toBe(200);
    expect(optionsResponse.parse(first.body)).toMatchObject({ ips: ["10.0.0.0/8", "2001:db8::/32", "192.168.1.7"], days: 255, hour_start: "07:30", hour_end: null, inherited: false });
    expect(await storedRow(group.id)).toMatchObject({ ips: ["10.0.0.0/8", "2001:db8::/32", "192.168.1.7"], hourStart: "07:30", updatedBy: admin.id });
    expect(await latestLog("group", group.id, "ADMLLOG_UPDATE")).toMatchObject({ userId: admin.id, message: expect.stringMatching(/connection options/) });

    const patched = await call(optionRoute.PATCH, at(group.id, { method: "PATCH", token: admin.token, body: { days: 62, can_netsync: false, oauth_blocked: 5, hour_start: null }, headers: { "x-forwarded-for": "127.0.0.1" } }));
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ ips: ["10.0.0.0/8", "2001:db8::/32", "192.168.1.7"], days: 62, hour_start: null, can_netsync: false, oauth_blocked: 5 });
    expect((await getOptions(admin.token, group.id)).body).toEqual(patched.body);
  });

  it("starts a user's explicit row from what they inherit, and DELETE falls back to inheritance", async () => {
    const admin = await createAdmin();
    const user = await createTestUser();
    const group = await createTestGroup({ members: [user.id] });
    await storeOptions(group.id, { ips: ["10.0.0.0/8"], days: 2 });

    const res = await putOptions(admin.token, user.id, { can_netsync: false });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ ips: ["10.0.0.0/8"], days: 2, can_netsync: false, inherited: false });

    const own = await putOptions(admin.token, user.id, { ips: null, days: 255 });
    expect(own.body).toMatchObject({ ips: null, days: 255, can_netsync: false, inherited: false });

    const removed = await deleteOptions(admin.token, user.id);
    expect(removed.status, removed.text).toBe(204);
    expect(await storedRow(user.id)).toBeUndefined();
    expect((await getOptions(admin.token, user.id)).body).toMatchObject({ ips: ["10.0.0.0/8"], days: 2, can_netsync: true, inherited: true });
    expect(await latestLog("user", user.id, "ADMLLOG_DELETE")).toMatchObject({ userId: admin.id });
    // Nothing left to remove: still a 204.
    expect((await deleteOptions(admin.token, user.id)).status).toBe(204);
  });

  it("refuses malformed addresses, hours and masks with the bad fields named, storing nothing", async () => {
    const admin = await createAdmin();
    const group = await createTestGroup();
    const bad = await putOptions(admin.token, group.id, { ips: ["10.0.0.1", "10.0.0.300", "10.0.0.0/33", "2001:db8::/129", "intranet", "1.2.3.4/8/1"] });
    expectError(bad, 400, "invalid_request");
    expect(bad.body.details.map((d: { path: string }) => d.path)).toEqual(["ips.1", "ips.2", "ips.3", "ips.4", "ips.5"]);
    for (const body of [{ hour_start: "25:00" }, { hour_end: "8:00" }, { days: 256 }, { days: -1 }, { oauth_blocked: 8 }, { can_netsync: "yes" }, { ips: "10.0.0.1" }]) {
      const res = await putOptions(admin.token, group.id, body);
      expectError(res, 400, "invalid_request");
      expect(res.body.details[0].path).toBe(Object.keys(body)[0]);
    }
    const same = await putOptions(admin.token, group.id, { hour_start: "08:00", hour_end: "08:00" });
    expectError(same, 400, "invalid_request");
    expect(same.body.details).toEqual([{ path: "hour_end", message: expect.any(String) }]);
    expect(await storedRow(group.id)).toBeUndefined();
    expectError(await putOptions(admin.token, 2_147_483_000, { days: 1 }), 404, "not_found");
  });

  it("lets managers change their users but not administrators, managers or groups; others are refused", async () => {
    const { manager, member, group } = await createManagedTeam();
    const admin = await createAdmin();
    const otherManager = await createTestUser({ role: 4 });
    const db = await getDb();
    await db.insert(groupMembers).values([{ groupId: group.id, userId: admin.id }, { groupId: group.id, userId: otherManager.id }]);

    const res = await putOptions(manager.token, member.id, { days: 127 });
    expect(res.status, res.text).toBe(200);
    expect(await storedRow(member.id)).toMatchObject({ days: 127, updatedBy: manager.id });
    expect((await deleteOptions(manager.token, member.id)).status).toBe(204);

    const put = (id: number) => at(id, { method: "PUT", body: { days: 1 } });
    await expectRefusedFor(manager.token, optionRoute.PUT, put(admin.id));
    await expectRefusedFor(manager.token, optionRoute.PUT, put(otherManager.id));
    await expectRefusedFor(manager.token, optionRoute.PUT, put(group.id));
    await expectRefusedFor(manager.token, optionRoute.DELETE, at(group.id, { method: "DELETE" }));
    await expectRefusedFor(member.token, optionRoute.PUT, put(member.id));
    await expectRefusedFor(member.token, optionRoute.DELETE, at(member.id, { method: "DELETE" }));
    for (const id of [admin.id, otherManager.id, group.id]) expect(await storedRow(id)).toBeUndefined();
    await expectAuthRequired(optionRoute.PUT, put(member.id));
    await expectAuthRequired(optionRoute.DELETE, at(member.id, { method: "DELETE" }));
  });

  it("takes the users scope away from a delegate whose `users` flag is off", async () => {
    const { manager, member, group } = await createManagedTeam();
    const db = await getDb();
    await db.update(groupManagers).set({ manageUsers: false }).where(eq(groupManagers.groupId, group.id));
    await expectRefusedFor(manager.token, optionRoute.GET, at(member.id));
    await expectRefusedFor(manager.token, optionRoute.PUT, at(member.id, { method: "PUT", body: { days: 1 } }));
    await expectRefusedFor(manager.token, optionRoute.GET, at(group.id));
    expect(await storedRow(member.id)).toBeUndefined();
  });

  it("answers 405 with Allow for POST", async () => {
    const admin = await createAdmin();
    const res = await call(optionRoute.POST, at(admin.id, { method: "POST", token: admin.token }));
    expectError(res, 405, "method_not_allowed");
    expect(res.headers.get("allow")).toMatch(/GET, PUT, PATCH, DELETE/);
  });
});
