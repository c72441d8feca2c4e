import { beforeAll, describe, expect, it } from "vitest";
import * as usersRoute from "@/app/api/users/route";
import { userResponse } from "@/lib/contracts/users";
import { createAdmin, createTestGroup, createTestUser, unique } from "../../helpers/factories";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired, expectRefusedFor } from "../../helpers/security";
import { uploadText } from "../../helpers/files";
import { createManagedTeam, openDatabase } from "./fixtures";

const list = (token: string, query: Record<string, string | number> = {}) => call(usersRoute.GET, { path: "/api/users", token, query });

beforeAll(openDatabase);

describe("GET /api/users", () => {
  it("returns the envelope of Users matching a keyword, ordered by login", async () => {
    const admin = await createAdmin();
    const tag = unique("kw");
    const b = await createTestUser({ login: `b_${tag}` });
    const a = await createTestUser({ login: `A_${tag}` });
    const byName = await createTestUser({ lastname: `Smith${tag.toUpperCase()}` });
    const byMail = await createTestUser({ email: `x.${tag}@corp.test` });
    await createTestUser({ login: `${tag}_gone`, deletedAt: new Date() });

    const res = await list(admin.token, { keyword: tag });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ offset_start: 0, nb_objects: 4, nb_objets: 4, nb_total_objects: 4 });
    const logins = res.body.objects.map((u: { login: string }) => u.login);
    expect(logins).toEqual([a, b, byName, byMail].map((u) => u.login).sort((x, y) => x.toLowerCase().localeCompare(y.toLowerCase())));
    for (const u of res.body.objects) userResponse.strict().parse(u);
  });

  it("pages with offset_start and nb_objects, keeping the total", async () => {
    const admin = await createAdmin();
    const tag = unique("pg");
    for (const n of [1, 2, 3]) await createTestUser({ login: `${tag}_${n}` });
    const res = await list(admin.token, { keyword: tag, offset_start: 1, nb_objects: 1 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ offset_start: 1, nb_objects: 1, nb_total_objects: 3 });
    expect(res.body.objects[0].login).toBe(`${tag}_2`);
  });

  it("treats % and _ in a keyword literally", async () => {
    const admin = await createAdmin();
    const tag = unique("lit");
    await createTestUser({ login: `${tag}x` });
    const res = await list(admin.token, { keyword: `${tag}%` });
    expect(res.body.nb_total_objects).toBe(0);
  });

  it("filters by member_of (a group login, any case)", async () => {
    const admin = await createAdmin();
    const inside = await createTestUser();
    await createTestUser();
    const group = await createTestGroup({ members: [inside.id] });
    const res = await list(admin.token, { member_of: group.login.toUpperCase() });
    expect(res.status, res.text).toBe(200);
    expect(res.body.objects.map((u: { id: string }) => u.id)).toEqual([String(inside.id)]);
  });

  it("shows a manager only the members of the groups they manage", async () => {
    const { manager, member, group } = await createManagedTeam();
    const second = await createTestUser();
    await createTestGroup({ members: [second.id], managers: [manager.id] });
    await createTestUser();
    const res = await list(manager.token, { nb_objects: 1000 });
    expect(res.status, res.text).toBe(200);
    expect(res.body.objects.map((u: { id: string }) => u.id).sort()).toEqual([String(member.id), String(second.id)].sort());
    const filtered = await list(manager.token, { member_of: group.login });
    expect(filtered.body.objects.map((u: { id: string }) => u.id)).toEqual([String(member.id)]);
  });

  it("answers 404 for an unknown member_of group and 400 for bad paging", async () => {
    const admin = await createAdmin();
    expectError(await list(admin.token, { member_of: unique("nogroup") }), 404, "not_found");
    const bad = await list(admin.token, { nb_objects: -1 });
    expectError(bad, 400, "invalid_request");
    expect(bad.body.details[0].path).toBe("nb_objects");
  });

  it("sorts the whole list before paging: by name, usage or last sign-in, either way, empty values last", async () => {
    const admin = await createAdmin();
    const tag = unique("srt");
    const day = (n: number) => new Date(Date.UTC(2026, 0, n));
    const heavy = await createTestUser({ login: `${tag}_a`, firstname: "Zoe", lastname: "Adams", lastLogin: day(2) });
    const light = await createTestUser({ login: `${tag}_b`, firstname: "", lastname: "", lastLogin: day(9) });
    const never = await createTestUser({ login: `${tag}_c`, firstname: "Anna", lastname: "Young", lastLogin: null });
    await uploadText(heavy, heavy.privateRootId!, "big.txt", "x".repeat(3000));
    await uploadText(light, light.privateRootId!, "small.txt", "y".repeat(100));
    const ids = async (query: Record<string, string | number>) => {
      const res = await list(admin.token, { keyword: tag, ...query });
      expect(res.status, res.text).toBe(200);
      return res.body.objects.map((u: { id: string }) => Number(u.id));
    };

    // Name is the display name: "Anna Young", the login of the one without names, "Zoe Adams".
    expect(await ids({ sort: "name" })).toEqual([never.id, light.id, heavy.id]);
    expect(await ids({ sort: "name", order: "desc" })).toEqual([heavy.id, light.id, never.id]);
    expect(await ids({ sort: "used", order: "desc" })).toEqual([heavy.id, light.id, never.id]);
    expect(await ids({ sort: "used" })).toEqual([never.id, light.id, heavy.id]);
    expect(await ids({ sort: "last_login", order: "desc" })).toEqual([light.id, heavy.id, never.id]);
    expect(await ids({ sort: "last_login" })).toEqual([heavy.id, light.id, never.id]);
    // Paging walks the sorted list, not a sorted page.
    expect(await ids({ sort: "used", order: "desc", offset_start: 1, nb_objects: 1 })).toEqual([light.id]);

    // `used` only when asked, and then the quota's figure.
    const plain = await list(admin.token, { keyword: tag });
    expect(plain.body.objects[0]).not.toHaveProperty("used");
    const withUsage = await list(admin.token, { keyword: tag, sort: "used", order: "desc", usage: 1 });
    for (const u of withUsage.body.objects) userResponse.strict().parse(u);
    expect(withUsage.body.objects.map((u: { used: number }) => u.used)).toEqual([3000, 100, 0]);
  });

  it("answers 400 for an unknown sort or order", async () => {
    const admin = await createAdmin();
    const bad = await list(admin.token, { sort: "password_hash" });
    expectError(bad, 400, "invalid_request");
    expect(bad.body.details[0].path).toBe("sort");
    expectError(await list(admin.token, { order: "sideways" }), 400, "invalid_request");
  });

  it("keeps a manager's sorted list to the members of their groups, usage included", async () => {
    const { manager, member } = await createManagedTeam();
    const outsider = await createTestUser();
    await uploadText(outsider, outsider.privateRootId!, "secret.txt", "z".repeat(5000));
    const res = await list(manager.token, { sort: "used", order: "desc", usage: 1, nb_objects: 1000 });
    expect(res.status, res.text).toBe(200);
    expect(res.body.objects.map((u: { id: string }) => u.id)).toEqual([String(member.id)]);
  });

  it("requires a valid token", async () => {
    await expectAuthRequired(usersRoute.GET, { path: "/api/users" });
    await expectAuthRequired(usersRoute.GET, { path: "/api/users", query: { sort: "used", usage: 1 } });
  });

  it("refuses regular users, externals and managers of no group", async () => {
    for (const role of [1, 2, 4] as const) {
      const user = await createTestUser({ role });
      await expectRefusedFor(user.token, usersRoute.GET, { path: "/api/users" });
      await expectRefusedFor(user.token, usersRoute.GET, { path: "/api/users", query: { sort: "used", usage: 1 } });
    }
  });

  it("refuses a manager member_of a group they do not manage, existing or not", async () => {
    const { manager } = await createManagedTeam();
    const other = await createTestGroup();
    await expectRefusedFor(manager.token, usersRoute.GET, { query: { member_of: other.login } });
    await expectRefusedFor(manager.token, usersRoute.GET, { query: { member_of: unique("nogroup") } });
  });
});
