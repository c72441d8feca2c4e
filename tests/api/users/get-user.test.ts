import { beforeAll, describe, expect, it } from "vitest";
import * as userRoute from "@/app/api/user/[userId]/route";
import { userResponse } from "@/lib/contracts/users";
import { createAdmin, createTestGroup, createTestUser } from "../../helpers/factories";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired, expectRefusedFor } from "../../helpers/security";
import { createManagedTeam, openDatabase } from "./fixtures";

const read = (id: number, token: string) => call(userRoute.GET, { path: `/api/user/${id}`, params: { userId: String(id) }, token });

beforeAll(openDatabase);

describe("GET /api/user/(userId)", () => {
  it("gives an administrator the User with its groups and private root", async () => {
    const admin = await createAdmin();
    const user = await createTestUser({ firstname: "Ada", organization: "Acme" });
    const group = await createTestGroup({ members: [user.id] });
    const res = await read(user.id, admin.token);
    expect(res.status, res.text).toBe(200);
    const body = userResponse.strict().parse(res.body);
    expect(body).toMatchObject({ id: String(user.id), login: user.login, firstname: "Ada", organization: "Acme", role: 2, active: true, can_admin: false });
    expect(body.roots).toEqual([user.privateRootId]);
    expect(body.groups).toEqual([{ id: String(group.id), login: group.login }]);
    expect(res.body).not.toHaveProperty("password_hash");
  });

  it("lets every user read themselves, externals included", async () => {
    for (const role of [1, 2, 4] as const) {
      const user = await createTestUser({ role });
      const res = await read(user.id, user.token);
      expect(res.status, res.text).toBe(200);
      expect(res.body.id).toBe(String(user.id));
    }
  });

  it("lets a manager read a member of a group they manage", async () => {
    const { manager, member } = await createManagedTeam();
    const res = await read(member.id, manager.token);
    expect(res.status, res.text).toBe(200);
    expect(res.body.login).toBe(member.login);
  });

  it("answers 404 for an unknown id and 400 for a malformed one", async () => {
    const admin = await createAdmin();
    expectError(await read(2_000_000_000, admin.token), 404, "not_found");
    const bad = await call(userRoute.GET, { params: { userId: "abc" }, token: admin.token });
    expectError(bad, 400, "invalid_request");
    expect(bad.body.details[0].path).toBe("userId");
  });

  it("answers 404 for a deleted user", async () => {
    const admin = await createAdmin();
    const gone = await createTestUser({ deletedAt: new Date() });
    expectError(await read(gone.id, admin.token), 404, "not_found");
  });

  it("requires a valid token", async () => {
    const user = await createTestUser();
    await expectAuthRequired(userRoute.GET, { params: { userId: String(user.id) } });
  });

  it("refuses another user's record with 403, and does not reveal whether an id exists", async () => {
    const user = await createTestUser();
    const other = await createTestUser();
    await expectRefusedFor(user.token, userRoute.GET, { params: { userId: String(other.id) } });
    await expectRefusedFor(user.token, userRoute.GET, { params: { userId: "2000000001" } });
  });

  it("refuses a manager a user outside the groups they manage", async () => {
    const { manager } = await createManagedTeam();
    const outsider = await createTestUser();
    await expectRefusedFor(manager.token, userRoute.GET, { params: { userId: String(outsider.id) } });
  });

  it("answers 405 with Allow for POST", async () => {
    const admin = await createAdmin();
    const res = await call(userRoute.POST, { method: "POST", params: { userId: String(admin.id) }, token: admin.token });
    expectError(res, 405, "method_not_allowed");
    expect(res.headers.get("allow")).toContain("PUT");
  });
});
