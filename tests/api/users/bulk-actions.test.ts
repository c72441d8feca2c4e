import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as userRoute from "@/app/api/user/[userId]/route";
import { getDb } from "@/db";
import { groupManagers } from "@/db/schema";
import { createAdmin, createTestGroup, createTestUser, reloadUser, type TestUser } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { createManagedTeam, memberGroupIds, openDatabase } from "./fixtures";

/**
 * The console's bulk actions on users (deactivate, add to a group, set a quota) are one
 * PUT /user/(id) per selected user, each judged on its own: what one may do succeeds, the rest is
 * refused without touching the row, and the summary counts both. These replay what the console
 * sends, for a selection mixing users the caller may and may not administer.
 */
const put = (token: string | null, user: { id: number }, body: unknown) =>
  call(userRoute.PUT, { method: "PUT", path: `/api/user/${user.id}`, params: { userId: String(user.id) }, body, token });

/** The console's loop: every selected user in turn, the statuses in order. */
async function bulk(token: string | null, selection: TestUser[], body: (u: TestUser) => unknown) {
  const statuses: number[] = [];
  for (const user of selection) statuses.push((await put(token, user, body(user))).status);
  return statuses;
}

const addTo = (groupId: number) => async (u: TestUser) => ({ groups: [...(await memberGroupIds(u.id)), groupId] });

beforeAll(openDatabase);

describe("bulk actions on users, as the console sends them", () => {
  it("lets an administrator deactivate, add to a group and set a quota for several users", async () => {
    const admin = await createAdmin();
    const a = await createTestUser();
    const b = await createTestUser();
    const group = await createTestGroup();
    expect(await bulk(admin.token, [a, b], () => ({ active: false }))).toEqual([200, 200]);
    expect(await bulk(admin.token, [a, b], () => ({ quota: 5 * 1024 ** 3 }))).toEqual([200, 200]);
    for (const u of [a, b]) {
      const res = await put(admin.token, u, await addTo(group.id)(u));
      expect(res.status, res.text).toBe(200);
      const row = await reloadUser(u.id);
      expect(row).toMatchObject({ active: false, quota: 5 * 1024 ** 3 });
      expect(await memberGroupIds(u.id)).toEqual([group.id]);
    }
  });

  it("lets a manager act on their members only: another group's user, an administrator and a manager are refused and unchanged", async () => {
    const { manager, member, group } = await createManagedTeam();
    const outsider = await createTestUser();
    const admin = await createAdmin();
    const otherManager = await createTestUser({ role: 4 });
    // Members of the manager's group, yet above a manager: refused all the same.
    await createTestGroup({ members: [admin.id, otherManager.id], managers: [manager.id] });
    const selection = [member, outsider, admin, otherManager];

    expect(await bulk(manager.token, selection, () => ({ active: false }))).toEqual([200, 403, 403, 403]);
    expect(await bulk(manager.token, selection, () => ({ quota: 1024 }))).toEqual([200, 403, 403, 403]);
    for (const u of [outsider, admin, otherManager]) expect(await reloadUser(u.id)).toMatchObject({ active: true, quota: null });
    expect(await reloadUser(member.id)).toMatchObject({ active: false, quota: 1024 });

    // Adding to a group they manage: their member only. Adding to a group they do not manage: nobody.
    const second = await createTestGroup({ managers: [manager.id] });
    const foreign = await createTestGroup();
    const statuses: number[] = [];
    for (const u of selection) statuses.push((await put(manager.token, u, await addTo(second.id)(u))).status);
    expect(statuses).toEqual([200, 403, 403, 403]);
    expect((await put(manager.token, member, await addTo(foreign.id)(member))).status).toBe(403);
    expect(await memberGroupIds(member.id)).toEqual([group.id, second.id].sort((x, y) => x - y));
    expect(await memberGroupIds(outsider.id)).toEqual([]);
  });

  it("refuses a manager whose delegation leaves out the users' administration", async () => {
    const { manager, member, group } = await createManagedTeam();
    const db = await getDb();
    await db.update(groupManagers).set({ manageUsers: false }).where(and(eq(groupManagers.groupId, group.id), eq(groupManagers.userId, manager.id)));
    expect(await bulk(manager.token, [member], () => ({ active: false }))).toEqual([403]);
    expect(await bulk(manager.token, [member], () => ({ quota: 1 }))).toEqual([403]);
    expect(await reloadUser(member.id)).toMatchObject({ active: true, quota: null });
  });

  it("refuses regular users and callers without a valid token, for every user of the selection", async () => {
    const a = await createTestUser();
    const b = await createTestUser();
    const regular = await createTestUser();
    expect(await bulk(regular.token, [a, b], () => ({ active: false }))).toEqual([403, 403]);
    expect(await bulk(regular.token, [a, b], () => ({ quota: 1 }))).toEqual([403, 403]);
    expect(await bulk(null, [a, b], () => ({ active: false }))).toEqual([401, 401]);
    expect(await bulk("not-a-real-token", [a, b], () => ({ quota: 1 }))).toEqual([401, 401]);
    for (const u of [a, b]) expect(await reloadUser(u.id)).toMatchObject({ active: true, quota: null });
  });
});
