import { beforeAll, describe, expect, it } from "vitest";
import * as groupRoute from "@/app/api/group/[groupId]/route";
import * as groupsRoute from "@/app/api/groups/route";
import { groupResponse } from "@/lib/contracts/groups";
import { createAdmin, createTestGroup, createTestUser, unique } from "../../helpers/factories";
import { call, expectError, type CallOptions } from "../../helpers/http";
import { expectAuthRequired, expectRefusedFor } from "../../helpers/security";
import { createManagedTeam, openDatabase } from "../users/fixtures";

const at = (id: number, extra: CallOptions = {}): CallOptions => ({ path: `/api/group/${id}`, params: { groupId: String(id) }, ...extra });
const ids = (objects: { id: string }[]) => objects.map((o) => o.id);

beforeAll(openDatabase);

describe("GET /api/group/(groupId)", () => {
  it("gives an administrator the Group, and its members as Users with full", async () => {
    const admin = await createAdmin();
    const manager = await createTestUser({ role: 4 });
    const alice = await createTestUser({ login: unique("a_") });
    const bob = await createTestUser({ login: unique("b_") });
    const gone = await createTestUser({ deletedAt: new Date() });
    const group = await createTestGroup({ members: [bob.id, alice.id, gone.id], managers: [manager.id] });

    const plain = await call(groupRoute.GET, at(group.id, { token: admin.token }));
    expect(plain.status, plain.text).toBe(200);
    expect(groupResponse.strict().parse(plain.body)).toEqual({ id: String(group.id), login: group.login, ldap: false, nb_members: 2 });

    const full = await call(groupRoute.GET, at(group.id, { token: admin.token, query: { full: "1" } }));
    expect(full.status).toBe(200);
    const body = groupResponse.strict().parse(full.body);
    expect(ids(body.members!)).toEqual([String(alice.id), String(bob.id)]);
    expect(body.members![0]).toMatchObject({ login: alice.login, groups: [{ id: String(group.id), login: group.login }] });
    expect(ids(body.managers!)).toEqual([String(manager.id)]);
    expect(body.nb_members).toBe(2);
  });

  it("lets a member read their group, and a manager read theirs with members", async () => {
    const { manager, member, group } = await createManagedTeam();
    const asMember = await call(groupRoute.GET, at(group.id, { token: member.token }));
    expect(asMember.status, asMember.text).toBe(200);
    expect(asMember.body.members).toBeUndefined();
    const asManager = await call(groupRoute.GET, at(group.id, { token: manager.token, query: { full: "true" } }));
    expect(asManager.status, asManager.text).toBe(200);
    expect(ids(asManager.body.members)).toEqual([String(member.id)]);
  });

  it("answers 404 for an unknown id (or a user id) and 400 for a malformed one", async () => {
    const admin = await createAdmin();
    expectError(await call(groupRoute.GET, at(2_000_000_000, { token: admin.token })), 404, "not_found");
    expectError(await call(groupRoute.GET, at(admin.id, { token: admin.token })), 404, "not_found");
    const bad = await call(groupRoute.GET, { params: { groupId: "x1" }, token: admin.token });
    expectError(bad, 400, "invalid_request");
    expect(bad.body.details[0].path).toBe("groupId");
  });

  it("requires a valid token", async () => {
    const group = await createTestGroup();
    await expectAuthRequired(groupRoute.GET, at(group.id));
  });

  it("refuses groups the caller neither belongs to nor manages, and members to plain members", async () => {
    const { manager, member, group } = await createManagedTeam();
    const other = await createTestGroup();
    await expectRefusedFor(member.token, groupRoute.GET, at(other.id));
    await expectRefusedFor(member.token, groupRoute.GET, at(2_000_000_000));
    await expectRefusedFor(manager.token, groupRoute.GET, at(other.id));
    await expectRefusedFor(member.token, groupRoute.GET, at(group.id, { query: { full: "1" } }));
  });
});

describe("GET /api/groups", () => {
  it("lists every group to an administrator, by name, with keyword and paging", async () => {
    const admin = await createAdmin();
    const tag = unique("gk");
    const b = await createTestGroup({ login: `B ${tag}` });
    const a = await createTestGroup({ login: `a ${tag}` });
    const c = await createTestGroup({ login: `c ${tag}` });
    const res = await call(groupsRoute.GET, { token: admin.token, query: { keyword: tag.toUpperCase() } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ offset_start: 0, nb_objects: 3, nb_objets: 3, nb_total_objects: 3 });
    expect(ids(res.body.objects)).toEqual([a, b, c].map((g) => String(g.id)));
    for (const g of res.body.objects) expect(groupResponse.strict().parse(g).members).toBeUndefined();
    const page = await call(groupsRoute.GET, { token: admin.token, query: { keyword: tag, offset_start: 2, nb_objects: 5 } });
    expect(page.body).toMatchObject({ offset_start: 2, nb_objects: 1, nb_total_objects: 3 });
    expect(ids(page.body.objects)).toEqual([String(c.id)]);
  });

  it("lists to others only the groups they belong to or manage", async () => {
    const { manager, member, group } = await createManagedTeam();
    const memberOf = await createTestGroup({ members: [manager.id] });
    await createTestGroup();
    const asManager = await call(groupsRoute.GET, { token: manager.token, query: { nb_objects: 1000 } });
    expect(asManager.status).toBe(200);
    expect(ids(asManager.body.objects).sort()).toEqual([String(group.id), String(memberOf.id)].sort());
    const asMember = await call(groupsRoute.GET, { token: member.token });
    expect(asMember.body).toMatchObject({ nb_total_objects: 1, objects: [{ id: String(group.id), nb_members: 1 }] });
    const external = await createTestUser({ role: 1 });
    expect((await call(groupsRoute.GET, { token: external.token })).body.nb_total_objects).toBe(0);
  });

  it("answers 400 for bad paging", async () => {
    const admin = await createAdmin();
    expectError(await call(groupsRoute.GET, { token: admin.token, query: { offset_start: -2 } }), 400, "invalid_request");
  });

  it("requires a valid token", async () => {
    await expectAuthRequired(groupsRoute.GET, { path: "/api/groups" });
  });

  it("never shows a regular user a group they are not in", async () => {
    const user = await createTestUser();
    const tag = unique("hidden");
    await createTestGroup({ login: tag });
    const res = await call(groupsRoute.GET, { token: user.token, query: { keyword: tag } });
    expect(res.status).toBe(200);
    expect(res.body.nb_total_objects).toBe(0);
  });
});
