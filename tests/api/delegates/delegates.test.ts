import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as createRoute from "@/app/api/delegate/route";
import * as delegateRoute from "@/app/api/delegate/[delegateId]/route";
import * as listRoute from "@/app/api/delegates/[groupId]/route";
import * as groupRoute from "@/app/api/group/[groupId]/route";
import * as userRoute from "@/app/api/user/[userId]/route";
import { getDb } from "@/db";
import { groupManagers, groupMembers } from "@/db/schema";
import { delegateResponse } from "@/lib/contracts/delegates";
import { createAdmin, createTestGroup, createTestUser, latestLog, reloadUser } from "../../helpers/factories";
import { call, expectError, type CallOptions } from "../../helpers/http";
import { expectAuthRequired, expectRefusedFor } from "../../helpers/security";
import { createManagedTeam, openDatabase } from "../users/fixtures";

beforeAll(openDatabase);

const at = (id: number, extra: CallOptions = {}): CallOptions => ({ path: `/api/delegate/${id}`, params: { delegateId: String(id) }, ...extra });
const ofGroup = (id: number, extra: CallOptions = {}): CallOptions => ({ path: `/api/delegates/${id}`, params: { groupId: String(id) }, ...extra });
const create = (token: string, body: unknown) => call(createRoute.POST, { method: "POST", path: "/api/delegate", token, body });

async function managerRow(groupId: number, userId: number) {
  const db = await getDb();
  const [row] = await db.select().from(groupManagers).where(and(eq(groupManagers.groupId, groupId), eq(groupManagers.userId, userId)));
  return row;
}

describe("POST /api/delegate", () => {
  it("makes a user a manager of the group with the given scopes, raising the role to manager, and logs", async () => {
    const admin = await createAdmin();
    const user = await createTestUser({ firstname: "Grace", lastname: "Hopper" });
    const group = await createTestGroup();
    const res = await create(admin.token, { user_id: String(user.id), group_id: group.id, users: true, security: false });
    expect(res.status, res.text).toBe(201);
    const delegate = delegateResponse.strict().parse(res.body);
    expect(delegate).toEqual({ id: expect.any(Number), user: "Grace Hopper", user_id: String(user.id), group_id: String(group.id), users: true, security: false, alerts: true });
    expect(await managerRow(group.id, user.id)).toMatchObject({ id: delegate.id, manageUsers: true, manageSecurity: false, manageAlerts: true });
    expect((await reloadUser(user.id)).role).toBe(4);
    expect(await latestLog("group", group.id, "ADMLLOG_INSERT")).toMatchObject({ userId: admin.id, message: expect.stringMatching(/delegate.*role raised/) });

    const read = await call(userRoute.GET, { token: admin.token, params: { userId: String(user.id) } });
    expect(read.body.manager_of).toEqual([{ id: String(group.id), login: group.login }]);
  });

  it("keeps a manager's role and refuses duplicates, external users, administrators and unknown ids", async () => {
    const admin = await createAdmin();
    const manager = await createTestUser({ role: 4 });
    const group = await createTestGroup();
    const first = await create(admin.token, { user_id: manager.id, group_id: group.id });
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({ users: true, security: true, alerts: true });
    expect((await reloadUser(manager.id)).role).toBe(4);

    expectError(await create(admin.token, { user_id: manager.id, group_id: group.id }), 409, "conflict");
    const external = await createTestUser({ role: 1 });
    const refused = await create(admin.token, { user_id: external.id, group_id: group.id });
    expectError(refused, 400, "invalid_request");
    expect(refused.body.details[0].path).toBe("user_id");
    expectError(await create(admin.token, { user_id: admin.id, group_id: group.id }), 400, "invalid_request");
    expect((await reloadUser(external.id)).role).toBe(1);

    const user = await createTestUser();
    expectError(await create(admin.token, { user_id: 2_147_483_000, group_id: group.id }), 404, "not_found");
    expectError(await create(admin.token, { user_id: user.id, group_id: 2_147_483_000 }), 404, "not_found");
    expect((await reloadUser(user.id)).role).toBe(2);
    expectError(await create(admin.token, { user_id: user.id }), 400, "invalid_request");
    expectError(await create(admin.token, { user_id: user.id, group_id: group.id, users: "yes" }), 400, "invalid_request");
  });

  it("is for administrators only", async () => {
    const { manager, member, group } = await createManagedTeam();
    const body = { user_id: member.id, group_id: group.id };
    await expectRefusedFor(manager.token, createRoute.POST, { method: "POST", body });
    await expectRefusedFor(member.token, createRoute.POST, { method: "POST", body });
    await expectAuthRequired(createRoute.POST, { method: "POST", body });
    expect((await reloadUser(member.id)).role).toBe(2);
  });
});

describe("GET, PUT, DELETE /api/delegate/(id) and GET /api/delegates/(groupId)", () => {
  async function stage() {
    const admin = await createAdmin();
    const { manager, member, group } = await createManagedTeam();
    const second = await createTestUser();
    const created = await create(admin.token, { user_id: second.id, group_id: group.id, alerts: false });
    const [first] = await (await getDb()).select().from(groupManagers).where(eq(groupManagers.userId, manager.id));
    return { admin, manager, member, group, second, delegateId: created.body.id as number, managerDelegateId: first.id };
  }

  it("reads one delegate and lists a group's delegates (managers set through the group too) in the envelope", async () => {
    const { admin, manager, group, second, delegateId, managerDelegateId } = await stage();
    const read = await call(delegateRoute.GET, at(delegateId, { token: admin.token }));
    expect(read.status, read.text).toBe(200);
    expect(delegateResponse.parse(read.body)).toMatchObject({ id: delegateId, user_id: String(second.id), group_id: String(group.id), alerts: false });

    const list = await call(listRoute.GET, ofGroup(group.id, { token: admin.token }));
    expect(list.status, list.text).toBe(200);
    expect(list.body).toMatchObject({ offset_start: 0, nb_objects: 2, nb_objets: 2, nb_total_objects: 2 });
    expect(list.body.objects.map((d: { id: number }) => d.id)).toEqual([managerDelegateId, delegateId]);
    expect(list.body.objects[0]).toMatchObject({ user_id: String(manager.id), users: true, security: true, alerts: true });
    const page = await call(listRoute.GET, ofGroup(group.id, { token: admin.token, query: { offset_start: 1, nb_objects: 1 } }));
    expect(page.body).toMatchObject({ offset_start: 1, nb_objects: 1, nb_total_objects: 2, objects: [{ id: delegateId }] });
  });

  it("changes only the scopes given (PUT and PATCH), then deletes the manager row and keeps the role", async () => {
    const { admin, group, second, delegateId } = await stage();
    const put = await call(delegateRoute.PUT, at(delegateId, { method: "PUT", token: admin.token, body: { security: false } }));
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({ users: true, security: false, alerts: false });
    expect(await latestLog("group", group.id, "ADMLLOG_UPDATE")).toMatchObject({ message: expect.stringMatching(/security off/) });
    const patch = await call(delegateRoute.PATCH, at(delegateId, { method: "PATCH", token: admin.token, body: { users: false, alerts: true } }));
    expect(patch.body).toMatchObject({ users: false, security: false, alerts: true });
    expect(await managerRow(group.id, second.id)).toMatchObject({ id: delegateId, manageUsers: false, manageSecurity: false, manageAlerts: true });

    const removed = await call(delegateRoute.DELETE, at(delegateId, { method: "DELETE", token: admin.token }));
    expect(removed.status, removed.text).toBe(204);
    expect(await managerRow(group.id, second.id)).toBeUndefined();
    expect((await reloadUser(second.id)).role).toBe(4);
    expect(await latestLog("group", group.id, "ADMLLOG_DELETE")).toMatchObject({ userId: admin.id });
    expectError(await call(delegateRoute.GET, at(delegateId, { token: admin.token })), 404, "not_found");
  });

  it("answers 404 for unknown delegates and groups, 400 for bad ids and bodies", async () => {
    const { admin, delegateId } = await stage();
    expectError(await call(delegateRoute.GET, at(2_147_483_000, { token: admin.token })), 404, "not_found");
    expectError(await call(delegateRoute.PUT, at(2_147_483_000, { method: "PUT", token: admin.token, body: { users: false } })), 404, "not_found");
    expectError(await call(delegateRoute.DELETE, at(2_147_483_000, { method: "DELETE", token: admin.token })), 404, "not_found");
    expectError(await call(listRoute.GET, ofGroup(2_147_483_000, { token: admin.token })), 404, "not_found");
    expectError(await call(delegateRoute.GET, at(0, { token: admin.token, params: { delegateId: "abc" } })), 400, "invalid_request");
    expectError(await call(delegateRoute.PUT, at(delegateId, { method: "PUT", token: admin.token, body: { users: 1 } })), 400, "invalid_request");
    expectError(await call(listRoute.GET, ofGroup(1, { token: admin.token, query: { nb_objects: -1 } })), 400, "invalid_request");
  });

  it("refuses everyone but administrators, changing nothing", async () => {
    const { manager, member, group, delegateId } = await stage();
    for (const token of [manager.token, member.token]) {
      await expectRefusedFor(token, delegateRoute.GET, at(delegateId));
      await expectRefusedFor(token, delegateRoute.PUT, at(delegateId, { method: "PUT", body: { users: false } }));
      await expectRefusedFor(token, delegateRoute.DELETE, at(delegateId, { method: "DELETE" }));
      await expectRefusedFor(token, listRoute.GET, ofGroup(group.id));
    }
    const db = await getDb();
    expect(await db.select().from(groupManagers).where(eq(groupManagers.id, delegateId))).toMatchObject([{ manageUsers: true }]);
    await expectAuthRequired(delegateRoute.GET, at(delegateId));
    await expectAuthRequired(delegateRoute.PUT, at(delegateId, { method: "PUT", body: { users: false } }));
    await expectAuthRequired(delegateRoute.DELETE, at(delegateId, { method: "DELETE" }));
    await expectAuthRequired(listRoute.GET, ofGroup(group.id));
  });
});

describe("the users scope of a delegate", () => {
  it("stops a manager from administering the group's users while it is off", async () => {
    const admin = await createAdmin();
    const { manager, member, group } = await createManagedTeam();
    const [row] = await (await getDb()).select().from(groupManagers).where(eq(groupManagers.groupId, group.id));
    const read = () => call(userRoute.GET, { token: manager.token, params: { userId: String(member.id) } });
    const rename = () => call(userRoute.PUT, { method: "PUT", token: manager.token, params: { userId: String(member.id) }, body: { firstname: "Renamed" } });
    expect((await read()).status).toBe(200);

    await call(delegateRoute.PUT, at(row.id, { method: "PUT", token: admin.token, body: { users: false } }));
    expectError(await read(), 403);
    expectError(await rename(), 403);
    expect((await reloadUser(member.id)).firstname).not.toBe("Renamed");

    await call(delegateRoute.PUT, at(row.id, { method: "PUT", token: admin.token, body: { users: true } }));
    expect((await rename()).status).toBe(200);
  });
});

describe("a delegation without the users scope (issue 25, finding 4)", () => {
  /** A manager who is a delegate of A without the users scope and of B with it; `target` is in A only. */
  async function stage() {
    const manager = await createTestUser({ role: 4 });
    const target = await createTestUser();
    const restricted = await createTestGroup({ members: [target.id] });
    const full = await createTestGroup();
    const db = await getDb();
    await db.insert(groupManagers).values([
      { groupId: restricted.id, userId: manager.id, manageUsers: false },
      { groupId: full.id, userId: manager.id, manageUsers: true },
    ]);
    return { manager, target, restricted, full };
  }
  const putGroup = (token: string, groupId: number, body: unknown) =>
    call(groupRoute.PUT, { method: "PUT", path: `/api/group/${groupId}`, params: { groupId: String(groupId) }, token, body });

  it("cannot bring that group's users under a group where the scope is on, then act as them or set their password", async () => {
    const { manager, target, full } = await stage();
    expectError(await putGroup(manager.token, full.id, { members: [target.id] }), 403, "forbidden");
    const db = await getDb();
    expect(await db.select().from(groupMembers).where(and(eq(groupMembers.groupId, full.id), eq(groupMembers.userId, target.id)))).toHaveLength(0);

    // Every other way to power over the user is refused by the same rule.
    const asTarget = await call(groupRoute.GET, { path: `/api/group/${full.id}`, params: { groupId: String(full.id) }, token: manager.token, headers: { AsId: String(target.id) } });
    expectError(asTarget, 403, "forbidden");
    const setPassword = await call(userRoute.PUT, { method: "PUT", token: manager.token, params: { userId: String(target.id) }, body: { password: "Taken-0ver-now" } });
    expectError(setPassword, 403, "forbidden");
    expect((await reloadUser(target.id)).passwordHash).toBe(target.passwordHash);
  });

  it("still lets the manager add users they administer through a group with the scope", async () => {
    const { manager, full } = await stage();
    const colleague = await createTestUser();
    await createTestGroup({ members: [colleague.id], managers: [manager.id] });
    const res = await putGroup(manager.token, full.id, { members: [colleague.id] });
    expect(res.status, res.text).toBe(200);
  });

  it("does not let the manager change the members of the restricted group itself", async () => {
    const { manager, target, restricted } = await stage();
    expectError(await putGroup(manager.token, restricted.id, { members: [] }), 403, "forbidden");
    const db = await getDb();
    expect(await db.select().from(groupMembers).where(and(eq(groupMembers.groupId, restricted.id), eq(groupMembers.userId, target.id)))).toHaveLength(1);
  });
});
