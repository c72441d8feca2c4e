import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as createRoute from "@/app/api/group/route";
import * as groupRoute from "@/app/api/group/[groupId]/route";
import { getDb } from "@/db";
import { groupManagers, groupMembers, groups } from "@/db/schema";
import { groupResponse } from "@/lib/contracts/groups";
import { createAdmin, createTestGroup, createTestUser, unique } from "../../helpers/factories";
import { call, expectError, type CallOptions } from "../../helpers/http";
import { expectAuthRequired, expectRefusedFor } from "../../helpers/security";
import { createManagedTeam, latestLog, openDatabase } from "../users/fixtures";

const at = (id: number, extra: CallOptions = {}): CallOptions => ({ path: `/api/group/${id}`, params: { groupId: String(id) }, ...extra });
const put = (token: string, id: number, body: unknown, query: Record<string, string> = {}) => call(groupRoute.PUT, at(id, { method: "PUT", token, body, query }));
const post = (token: string, body: unknown, query: Record<string, string> = {}) => call(createRoute.POST, { method: "POST", path: "/api/group", token, body, query });

async function membersOf(groupId: number) {
  const db = await getDb();
  return (await db.select({ id: groupMembers.userId }).from(groupMembers).where(eq(groupMembers.groupId, groupId))).map((r) => r.id).sort((a, b) => a - b);
}
async function managersOf(groupId: number) {
  const db = await getDb();
  return (await db.select({ id: groupManagers.userId }).from(groupManagers).where(eq(groupManagers.groupId, groupId))).map((r) => r.id).sort((a, b) => a - b);
}
async function createLdapGroup() {
  const db = await getDb();
  const [group] = await db.insert(groups).values({ login: unique("ldap_"), ldap: true }).returning();
  return group;
}
const sorted = (...ids: number[]) => ids.sort((a, b) => a - b);

beforeAll(openDatabase);

describe("POST /api/group", () => {
  it("creates a group with members and managers (201), logged", async () => {
    const admin = await createAdmin();
    const a = await createTestUser();
    const b = await createTestUser();
    const manager = await createTestUser({ role: 4 });
    const login = unique("Team ");
    const res = await post(admin.token, { login, members: [String(a.id), { id: b.id }], managers: [manager.id] }, { full: "1" });
    expect(res.status, res.text).toBe(201);
    const body = groupResponse.strict().parse(res.body);
    expect(body).toMatchObject({ login, ldap: false, nb_members: 2 });
    const id = Number(body.id);
    expect(await membersOf(id)).toEqual(sorted(a.id, b.id));
    expect(await managersOf(id)).toEqual([manager.id]);
    expect(body.managers!.map((u) => u.id)).toEqual([String(manager.id)]);
    expect(await latestLog("group", id)).toMatchObject({ type: "ADMLLOG_INSERT", userId: admin.id, object: login });
  });

  it("answers 400 with details, 404 for an unknown member, 409 for a duplicate name in any case", async () => {
    const admin = await createAdmin();
    const bad = await post(admin.token, { login: "", members: ["x"] });
    expectError(bad, 400, "invalid_request");
    expect(bad.body.details.map((d: { path: string }) => d.path).sort()).toEqual(["login", "members.0"]);
    expectError(await post(admin.token, { login: unique("g "), members: [2_000_000_000] }), 404, "not_found");
    const regular = await createTestUser();
    const notManager = await post(admin.token, { login: unique("g "), managers: [regular.id] });
    expectError(notManager, 400, "invalid_request");
    expect(notManager.body.details[0].path).toBe("managers");
    const existing = await createTestGroup();
    const dup = await post(admin.token, { login: existing.login.toUpperCase(), members: [] });
    expectError(dup, 409, "conflict");
  });

  it("requires a valid token", async () => {
    await expectAuthRequired(createRoute.POST, { method: "POST", body: { login: unique("g ") } });
  });

  it("refuses everyone but administrators", async () => {
    const login = unique("g ");
    for (const role of [1, 2, 4] as const) {
      const user = await createTestUser({ role });
      await expectRefusedFor(user.token, createRoute.POST, { method: "POST", body: { login, members: [] } });
    }
    const db = await getDb();
    expect(await db.select().from(groups).where(eq(groups.login, login))).toHaveLength(0);
  });
});

describe("PUT /api/group/(groupId)", () => {
  it("renames and replaces members and managers, logged; PATCH does the same", async () => {
    const admin = await createAdmin();
    const [a, b, c] = [await createTestUser(), await createTestUser(), await createTestUser()];
    const [m1, m2] = [await createTestUser({ role: 4 }), await createTestUser({ role: 4 })];
    const group = await createTestGroup({ members: [a.id, b.id], managers: [m1.id] });
    const login = unique("Renamed ");
    const res = await put(admin.token, group.id, { login, members: [b.id, c.id], managers: [m2.id] });
    expect(res.status, res.text).toBe(200);
    expect(groupResponse.strict().parse(res.body)).toEqual({ id: String(group.id), login, ldap: false, nb_members: 2 });
    expect(await membersOf(group.id)).toEqual(sorted(b.id, c.id));
    expect(await managersOf(group.id)).toEqual([m2.id]);
    const log = await latestLog("group", group.id);
    expect(log).toMatchObject({ type: "ADMLLOG_UPDATE", object: login });
    expect(log.message).toMatch(/login, members, managers/);

    const patched = await call(groupRoute.PATCH, at(group.id, { method: "PATCH", token: admin.token, body: { members: [] } }));
    expect(patched.status, patched.text).toBe(200);
    expect(await membersOf(group.id)).toEqual([]);
  });

  it("keeps the memberships of deleted users when replacing members", async () => {
    const admin = await createAdmin();
    const live = await createTestUser();
    const gone = await createTestUser({ deletedAt: new Date() });
    const group = await createTestGroup({ members: [live.id, gone.id] });
    expect((await put(admin.token, group.id, { members: [] })).status).toBe(200);
    expect(await membersOf(group.id)).toEqual([gone.id]);
  });

  it("lets a manager replace the members of their group with users they manage", async () => {
    const { manager, group } = await createManagedTeam();
    const colleague = await createTestUser();
    const second = await createTestGroup({ members: [colleague.id], managers: [manager.id] });
    const res = await put(manager.token, group.id, { members: [colleague.id] }, { full: "1" });
    expect(res.status, res.text).toBe(200);
    expect(res.body.members.map((u: { id: string }) => u.id)).toEqual([String(colleague.id)]);
    // The former member is removed; the colleague keeps their other membership.
    expect(await membersOf(group.id)).toEqual([colleague.id]);
    expect(await membersOf(second.id)).toEqual([colleague.id]);
  });

  it("answers 400 with details, 404 for unknown groups and members, 409 for a taken name", async () => {
    const admin = await createAdmin();
    const group = await createTestGroup();
    const bad = await put(admin.token, group.id, { login: "   ", members: "all" });
    expectError(bad, 400, "invalid_request");
    expect(bad.body.details.map((d: { path: string }) => d.path).sort()).toEqual(["login", "members"]);
    expectError(await put(admin.token, 2_000_000_000, { login: unique("g ") }), 404, "not_found");
    expectError(await put(admin.token, group.id, { members: [2_000_000_000] }), 404, "not_found");
    const other = await createTestGroup();
    expectError(await put(admin.token, group.id, { login: other.login.toUpperCase() }), 409, "conflict");
    const db = await getDb();
    const [row] = await db.select().from(groups).where(eq(groups.id, group.id));
    expect(row.login).toBe(group.login);
  });

  it("refuses to change a directory (LDAP) group, even to an administrator", async () => {
    const admin = await createAdmin();
    const group = await createLdapGroup();
    const res = await put(admin.token, group.id, { login: unique("x ") });
    expectError(res, 403, "forbidden");
    expect(res.body.error).toMatch(/read-only/);
  });

  it("requires a valid token", async () => {
    const group = await createTestGroup();
    await expectAuthRequired(groupRoute.PUT, at(group.id, { method: "PUT", body: { login: unique("g ") } }));
  });

  it("refuses regular users, members, managers of other groups, and managers adding users they do not manage", async () => {
    const { manager, member, group } = await createManagedTeam();
    const body = { members: [member.id] };
    await expectRefusedFor(member.token, groupRoute.PUT, at(group.id, { method: "PUT", body }));
    const other = await createTestGroup();
    await expectRefusedFor(manager.token, groupRoute.PUT, at(other.id, { method: "PUT", body }));
    const outsider = await createTestUser();
    await expectRefusedFor(manager.token, groupRoute.PUT, at(group.id, { method: "PUT", body: { members: [member.id, outsider.id] } }));
    await expectRefusedFor(manager.token, groupRoute.PUT, at(group.id, { method: "PUT", body: { login: unique("g ") } }));
    await expectRefusedFor(manager.token, groupRoute.PUT, at(group.id, { method: "PUT", body: { managers: [] } }));
    expect(await membersOf(group.id)).toEqual([member.id]);
    expect(await managersOf(group.id)).toEqual([manager.id]);
  });
});

describe("DELETE /api/group/(groupId)", () => {
  it("deletes the group with its memberships (204), logged; the users stay", async () => {
    const admin = await createAdmin();
    const user = await createTestUser();
    const group = await createTestGroup({ members: [user.id] });
    const res = await call(groupRoute.DELETE, at(group.id, { method: "DELETE", token: admin.token }));
    expect(res.status, res.text).toBe(204);
    const db = await getDb();
    expect(await db.select().from(groups).where(eq(groups.id, group.id))).toHaveLength(0);
    expect(await membersOf(group.id)).toEqual([]);
    expect((await call(groupRoute.GET, at(group.id, { token: admin.token }))).status).toBe(404);
    expect(await latestLog("group", group.id)).toMatchObject({ type: "ADMLLOG_DELETE", userId: admin.id, object: group.login });
  });

  it("answers 400 for a malformed id, 404 for an unknown group and 403 for a directory (LDAP) group", async () => {
    const admin = await createAdmin();
    const bad = await call(groupRoute.DELETE, { method: "DELETE", params: { groupId: "0" }, token: admin.token });
    expectError(bad, 400, "invalid_request");
    expect(bad.body.details[0].path).toBe("groupId");
    expectError(await call(groupRoute.DELETE, at(2_000_000_000, { method: "DELETE", token: admin.token })), 404, "not_found");
    const ldap = await createLdapGroup();
    expectError(await call(groupRoute.DELETE, at(ldap.id, { method: "DELETE", token: admin.token })), 403, "forbidden");
  });

  it("requires a valid token", async () => {
    const group = await createTestGroup();
    await expectAuthRequired(groupRoute.DELETE, at(group.id, { method: "DELETE" }));
  });

  it("refuses everyone but administrators, managers of the group included", async () => {
    const { manager, member, group } = await createManagedTeam();
    await expectRefusedFor(member.token, groupRoute.DELETE, at(group.id, { method: "DELETE" }));
    await expectRefusedFor(manager.token, groupRoute.DELETE, at(group.id, { method: "DELETE" }));
    const db = await getDb();
    expect(await db.select().from(groups).where(eq(groups.id, group.id))).toHaveLength(1);
  });
});
