import { beforeAll, describe, expect, it } from "vitest";
import * as userRoute from "@/app/api/user/[userId]/route";
import * as usersRoute from "@/app/api/users/route";
import { createAdmin, createTestGroup, createTestUser, reloadUser } from "../../helpers/factories";
import { call, expectError, type CallOptions } from "../../helpers/http";
import { createManagedTeam, latestLog, openDatabase } from "../users/fixtures";

// AsId (also `As`) acts as another user (api.md): administrators as anyone, managers as the users
// of the groups they manage; everything then runs with the target's rights.
const readUser = (id: number, token: string, headers: Record<string, string>) =>
  call(userRoute.GET, { path: `/api/user/${id}`, params: { userId: String(id) }, token, headers });

beforeAll(openDatabase);

describe("AsId on the users operations", () => {
  it("lets an administrator act as a user, with that user's rights only", async () => {
    const admin = await createAdmin();
    const user = await createTestUser();
    const other = await createTestUser();
    const self = await readUser(user.id, admin.token, { AsId: String(user.id) });
    expect(self.status, self.text).toBe(200);
    expect(self.body).toMatchObject({ id: String(user.id), login: user.login, can_admin: false });
    // As the regular user, listing users and reading someone else are refused.
    expectError(await call(usersRoute.GET, { token: admin.token, headers: { AsId: String(user.id) } }), 403, "forbidden");
    expectError(await readUser(other.id, admin.token, { AsId: String(user.id) }), 403, "forbidden");
    // Without the header the administrator is themselves again.
    expect((await call(usersRoute.GET, { token: admin.token, query: { keyword: user.login } })).body.nb_total_objects).toBe(1);
  });

  it("accepts the `As` header as an alias", async () => {
    const admin = await createAdmin();
    const user = await createTestUser();
    const other = await createTestUser();
    expect((await readUser(user.id, admin.token, { As: String(user.id) })).status).toBe(200);
    expectError(await readUser(other.id, admin.token, { As: String(user.id) }), 403, "forbidden");
  });

  it("acts with the target's rights on changes too, and logs them as the target", async () => {
    const admin = await createAdmin();
    const { manager, member } = await createManagedTeam();
    const res = await call(userRoute.PUT, { method: "PUT", params: { userId: String(member.id) }, token: admin.token, headers: { AsId: String(manager.id) }, body: { firstname: "ViaAsId" } });
    expect(res.status, res.text).toBe(200);
    expect((await reloadUser(member.id)).firstname).toBe("ViaAsId");
    expect(await latestLog("user", member.id)).toMatchObject({ type: "ADMLLOG_UPDATE", userId: manager.id });
  });

  it("lets a manager act as a user of a group they manage", async () => {
    const { manager, member } = await createManagedTeam();
    const res = await readUser(member.id, manager.token, { AsId: String(member.id) });
    expect(res.status, res.text).toBe(200);
    expect(res.body.id).toBe(String(member.id));
    // Acting as the member, the manager's own powers are gone.
    expectError(await call(usersRoute.GET, { token: manager.token, headers: { AsId: String(member.id) } }), 403);
  });

  it("refuses a manager acting as a user outside their groups, or as an administrator in them", async () => {
    const { manager } = await createManagedTeam();
    const outsider = await createTestUser();
    expectError(await readUser(outsider.id, manager.token, { AsId: String(outsider.id) }), 403, "forbidden");
    const admin = await createAdmin();
    await createTestGroup({ members: [admin.id], managers: [manager.id] });
    expectError(await readUser(admin.id, manager.token, { AsId: String(admin.id) }), 403, "forbidden");
  });

  it("refuses a manager acting as another manager, even one who is a member of a group they manage", async () => {
    // Issue 11, finding 2: as the other manager, the first one reset passwords in groups they do not manage.
    const { manager } = await createManagedTeam();
    const other = await createManagedTeam();
    await createTestGroup({ members: [other.manager.id], managers: [manager.id] });
    expectError(await readUser(other.manager.id, manager.token, { AsId: String(other.manager.id) }), 403, "forbidden");
    const hashBefore = (await reloadUser(other.member.id)).passwordHash;
    const reset = await call(userRoute.PUT, {
      method: "PUT",
      params: { userId: String(other.member.id) },
      token: manager.token,
      headers: { AsId: String(other.manager.id) },
      body: { password: "Taken-over-1234" },
    });
    expectError(reset, 403, "forbidden");
    expect((await reloadUser(other.member.id)).passwordHash).toBe(hashBefore);
    const external = await createTestUser({ role: 1 });
    await createTestGroup({ members: [external.id], managers: [manager.id] });
    expect((await readUser(external.id, manager.token, { AsId: String(external.id) })).status).toBe(200);
  });

  it("refuses a regular user any AsId", async () => {
    const user = await createTestUser();
    const other = await createTestUser();
    expectError(await readUser(other.id, user.token, { AsId: String(other.id) }), 403, "forbidden");
    expectError(await readUser(other.id, user.token, { As: String(other.id) }), 403, "forbidden");
  });

  it("answers 404 to an administrator acting as an unknown or deleted user, 400 to a malformed AsId", async () => {
    const admin = await createAdmin();
    const gone = await createTestUser({ deletedAt: new Date() });
    expectError(await readUser(admin.id, admin.token, { AsId: "2000000000" }), 404, "not_found");
    expectError(await readUser(gone.id, admin.token, { AsId: String(gone.id) }), 404, "not_found");
    expectError(await readUser(admin.id, admin.token, { AsId: "bob" }), 400, "invalid_request");
  });

  it("still needs a valid token", async () => {
    const user = await createTestUser();
    const options: CallOptions = { params: { userId: String(user.id) }, headers: { AsId: String(user.id) } };
    expectError(await call(userRoute.GET, { ...options, token: null }), 401, "unauthorized");
    expectError(await call(userRoute.GET, { ...options, token: "forged" }), 401, "unauthorized");
  });
});
