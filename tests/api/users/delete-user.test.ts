import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as authRoute from "@/app/api/auth/route";
import * as userRoute from "@/app/api/user/[userId]/route";
import * as usersRoute from "@/app/api/users/route";
import { getDb } from "@/db";
import { folders, sessions, trashItems } from "@/db/schema";
import { createAdmin, createTestGroup, createTestUser, PASSWORD, reloadUser } from "../../helpers/factories";
import { call, expectError, type CallOptions } from "../../helpers/http";
import { expectAuthRequired, expectRefusedFor } from "../../helpers/security";
import { createManagedTeam, latestLog, memberGroupIds, openDatabase } from "./fixtures";

const target = (id: number, extra: CallOptions = {}): CallOptions => ({ method: "DELETE", path: `/api/user/${id}`, params: { userId: String(id) }, ...extra });
const remove = (token: string, id: number) => call(userRoute.DELETE, target(id, { token }));

beforeAll(openDatabase);

describe("DELETE /api/user/(userId)", () => {
  it("soft-deletes: 204, token revoked, private space in the trash, memberships kept, logged", async () => {
    const admin = await createAdmin();
    const user = await createTestUser();
    const group = await createTestGroup({ members: [user.id] });
    const res = await remove(admin.token, user.id);
    expect(res.status, res.text).toBe(204);
    expect(res.text).toBe("");

    const row = await reloadUser(user.id);
    expect(row.deletedAt).toBeInstanceOf(Date);
    // Their next request is refused: the token is gone.
    expectError(await call(userRoute.GET, { params: { userId: String(user.id) }, token: user.token }), 401, "unauthorized");
    const db = await getDb();
    expect(await db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);

    const [root] = await db.select().from(folders).where(eq(folders.id, user.privateRootId!));
    expect(root.deletedAt).toBeInstanceOf(Date);
    const trash = await db.select().from(trashItems).where(eq(trashItems.folderId, user.privateRootId!));
    expect(trash).toEqual([expect.objectContaining({ ownerId: user.id, deletedBy: admin.id, originalParentId: null, fileId: null })]);

    expect(await memberGroupIds(user.id)).toEqual([group.id]);
    expect(await latestLog("user", user.id)).toMatchObject({ type: "ADMLLOG_DELETE", userId: admin.id, object: user.login });
  });

  it("makes the user read as 404, vanish from lists and unable to sign in", async () => {
    const admin = await createAdmin();
    const user = await createTestUser();
    expect((await remove(admin.token, user.id)).status).toBe(204);
    expectError(await call(userRoute.GET, { params: { userId: String(user.id) }, token: admin.token }), 404, "not_found");
    expectError(await remove(admin.token, user.id), 404, "not_found");
    const list = await call(usersRoute.GET, { token: admin.token, query: { keyword: user.login } });
    expect(list.body.nb_total_objects).toBe(0);
    const signIn = await call(authRoute.POST, { method: "POST", body: { user: user.login, password: PASSWORD }, headers: { "x-forwarded-for": "10.88.1.1" } });
    expectError(signIn, 401, "unauthorized");
  });

  it("deletes an external user, who has no private space", async () => {
    const admin = await createAdmin();
    const external = await createTestUser({ role: 1 });
    expect(external.privateRootId).toBeNull();
    expect((await remove(admin.token, external.id)).status).toBe(204);
    expect((await reloadUser(external.id)).deletedAt).toBeInstanceOf(Date);
  });

  it("lets a manager delete a member of a group they manage", async () => {
    const { manager, member } = await createManagedTeam();
    expect((await remove(manager.token, member.id)).status).toBe(204);
    expect((await reloadUser(member.id)).deletedAt).toBeInstanceOf(Date);
  });

  it("answers 404 for an unknown id and 400 for a malformed one", async () => {
    const admin = await createAdmin();
    expectError(await remove(admin.token, 2_000_000_000), 404, "not_found");
    expectError(await call(userRoute.DELETE, { method: "DELETE", params: { userId: "-4" }, token: admin.token }), 400, "invalid_request");
  });

  it("refuses an administrator deleting their own account", async () => {
    const admin = await createAdmin();
    const res = await remove(admin.token, admin.id);
    expectError(res, 403, "forbidden");
    expect(res.body.error).toMatch(/own account/);
    expect((await reloadUser(admin.id)).deletedAt).toBeNull();
  });

  it("requires a valid token", async () => {
    const user = await createTestUser();
    await expectAuthRequired(userRoute.DELETE, target(user.id));
    expect((await reloadUser(user.id)).deletedAt).toBeNull();
  });

  it("refuses regular users and managers outside their groups or on administrators", async () => {
    const user = await createTestUser();
    const other = await createTestUser();
    await expectRefusedFor(user.token, userRoute.DELETE, target(other.id));
    const { manager } = await createManagedTeam();
    await expectRefusedFor(manager.token, userRoute.DELETE, target(other.id));
    const admin = await createAdmin();
    await createTestGroup({ members: [admin.id], managers: [manager.id] });
    await expectRefusedFor(manager.token, userRoute.DELETE, target(admin.id));
    expect((await reloadUser(other.id)).deletedAt).toBeNull();
    expect((await reloadUser(admin.id)).deletedAt).toBeNull();
  });
});
