import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as authRoute from "@/app/api/auth/route";
import * as userRoute from "@/app/api/user/[userId]/route";
import { getDb } from "@/db";
import { emails, groups, sessions } from "@/db/schema";
import { userResponse } from "@/lib/contracts/users";
import { createAdmin, createTestGroup, createTestUser, createToken, reloadUser, unique } from "../../helpers/factories";
import { call, expectError, type CallOptions } from "../../helpers/http";
import { expectAuthRequired, expectRefusedFor } from "../../helpers/security";
import { createManagedTeam, latestLog, memberGroupIds, openDatabase } from "./fixtures";

const NEW_PASSWORD = "Brand-new-pass-7";
const target = (id: number, body: unknown, extra: CallOptions = {}): CallOptions => ({ method: "PUT", path: `/api/user/${id}`, params: { userId: String(id) }, body, ...extra });
const update = (token: string, id: number, body: unknown, query: Record<string, string> = {}) => call(userRoute.PUT, target(id, body, { token, query }));
const signIn = (login: string, password: string) =>
  call(authRoute.POST, { method: "POST", body: { user: login, password }, headers: { "x-forwarded-for": `10.77.${Math.floor(Math.random() * 250)}.1` } });

beforeAll(openDatabase);

describe("PUT /api/user/(userId)", () => {
  it("changes every field of the contract, reads them back and logs the change", async () => {
    const admin = await createAdmin();
    const user = await createTestUser({ role: 1 });
    const keep = await createTestGroup({ members: [user.id] });
    const join = await createTestGroup();
    const login = unique("renamed_");
    const expire = "2099-01-02T03:04:05.000Z";
    const res = await update(admin.token, user.id, {
      login,
      firstname: "Ada",
      lastname: "Lovelace",
      email: "ada@example.test",
      organization: "Analytical",
      phone: "+33 1 23",
      active: true,
      language: "fr",
      quota: 1_073_741_824,
      expire,
      groups: [{ id: String(join.id) }],
      can_edit_options: false,
      role: 2,
    });
    expect(res.status, res.text).toBe(200);
    const body = userResponse.strict().parse(res.body);
    expect(body).toMatchObject({ login, firstname: "Ada", lastname: "Lovelace", email: "ada@example.test", organization: "Analytical", phone: "+33 1 23", language: "fr", quota: 1_073_741_824, expire, can_edit_options: false, role: 2 });
    expect(body.groups).toEqual([{ id: String(join.id), login: join.login }]);
    expect(await memberGroupIds(user.id)).toEqual([join.id]);
    expect(keep.id).not.toBe(join.id);
    // Promoted from external: the user now has a private space.
    const row = await reloadUser(user.id);
    expect(row.privateRootId).toBeTruthy();
    expect(body.roots).toEqual([row.privateRootId]);
    const log = await latestLog("user", user.id);
    expect(log).toMatchObject({ type: "ADMLLOG_UPDATE", userId: admin.id, object: login });
    expect(log.message).toContain("role");
    expect(log.message).toContain("groups");
  });

  it("accepts PATCH as PUT, and `groups: []` removes every membership", async () => {
    const admin = await createAdmin();
    const user = await createTestUser();
    await createTestGroup({ members: [user.id] });
    await createTestGroup({ members: [user.id] });
    const res = await call(userRoute.PATCH, target(user.id, { groups: [] }, { method: "PATCH", token: admin.token }));
    expect(res.status, res.text).toBe(200);
    expect(res.body.groups).toEqual([]);
    expect(await memberGroupIds(user.id)).toEqual([]);
  });

  it("changes the password: hashed, old sessions revoked, new one works, mailed with alert", async () => {
    const admin = await createAdmin();
    const user = await createTestUser();
    const res = await update(admin.token, user.id, { password: NEW_PASSWORD }, { alert: "true" });
    expect(res.status, res.text).toBe(200);
    const row = await reloadUser(user.id);
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row.passwordHash).not.toContain(NEW_PASSWORD);
    expectError(await call(userRoute.GET, { params: { userId: String(user.id) }, token: user.token }), 401, "unauthorized");
    expect((await signIn(user.login, NEW_PASSWORD)).status).toBe(200);
    const db = await getDb();
    const mails = await db.select().from(emails).where(eq(emails.to, user.email));
    expect(mails).toHaveLength(1);
    expect(mails[0].content).toContain(NEW_PASSWORD);
    expect(mails[0].content).toContain(user.login);
    const log = await latestLog("user", user.id, "ADMLLOG_UPDATE");
    expect(log.message).toContain("password");
    expect(log.message).not.toContain(NEW_PASSWORD);
  });

  it("sends the password only with alert, and with alert only when the password changed; the owner is told of a change either way", async () => {
    const admin = await createAdmin();
    const user = await createTestUser();
    expect((await update(admin.token, user.id, { password: NEW_PASSWORD })).status).toBe(200);
    expect((await update(admin.token, user.id, { firstname: "Other" }, { alert: "1" })).status).toBe(200);
    const db = await getDb();
    // Issue 25, finding 8: the notice that sessions and applications ended, without the password.
    const mails = await db.select().from(emails).where(eq(emails.to, user.email));
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ sensitive: false, object: expect.stringMatching(/password was changed/) });
    expect(mails[0].content).toContain("by an administrator");
    expect(mails[0].content).not.toContain(NEW_PASSWORD);
  });

  it("keeps the caller's own session when they change their own password", async () => {
    const admin = await createAdmin();
    const elsewhere = await createToken(admin.id);
    expect((await update(admin.token, admin.id, { password: NEW_PASSWORD })).status).toBe(200);
    expect((await call(userRoute.GET, { params: { userId: String(admin.id) }, token: admin.token })).status).toBe(200);
    expectError(await call(userRoute.GET, { params: { userId: String(admin.id) }, token: elsewhere }), 401);
  });

  it("deactivating revokes the user's sessions", async () => {
    const admin = await createAdmin();
    const user = await createTestUser();
    const res = await update(admin.token, user.id, { active: false });
    expect(res.status, res.text).toBe(200);
    expect(res.body.active).toBe(false);
    const db = await getDb();
    expect(await db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
    expectError(await call(userRoute.GET, { params: { userId: String(user.id) }, token: user.token }), 401);
  });

  it("refuses a weak password with 403 weak_password and keeps the old one", async () => {
    const admin = await createAdmin();
    const user = await createTestUser();
    expectError(await update(admin.token, user.id, { password: "abc" }), 403, "weak_password");
    expect((await reloadUser(user.id)).passwordHash).toBe(user.passwordHash);
  });

  it("lets a directory (LDAP) account change its groups only", async () => {
    const admin = await createAdmin();
    const user = await createTestUser({ ldap: true });
    const group = await createTestGroup();
    const ok = await update(admin.token, user.id, { groups: [group.id], firstname: user.firstname, login: user.login });
    expect(ok.status, ok.text).toBe(200);
    expect(await memberGroupIds(user.id)).toEqual([group.id]);
    expectError(await update(admin.token, user.id, { firstname: "Changed" }), 403, "forbidden");
    expectError(await update(admin.token, user.id, { password: NEW_PASSWORD }), 403, "forbidden");
    expect((await reloadUser(user.id)).firstname).toBe(user.firstname);
  });

  it("refuses to change memberships of a directory (LDAP) group", async () => {
    const admin = await createAdmin();
    const user = await createTestUser();
    const db = await getDb();
    const [ldapGroup] = await db.insert(groups).values({ login: unique("ldap_"), ldap: true }).returning();
    expectError(await update(admin.token, user.id, { groups: [ldapGroup.id] }), 403, "forbidden");
    expect(await memberGroupIds(user.id)).toEqual([]);
  });

  it("answers 400 with details, 404 for unknown users and groups, 409 for a taken login", async () => {
    const admin = await createAdmin();
    const user = await createTestUser();
    const bad = await update(admin.token, user.id, { language: "xx", quota: -1, role: 7, active: "yes" });
    expectError(bad, 400, "invalid_request");
    expect(bad.body.details.map((d: { path: string }) => d.path).sort()).toEqual(["active", "language", "quota", "role"]);
    expectError(await update(admin.token, 2_000_000_000, { firstname: "x" }), 404, "not_found");
    expectError(await update(admin.token, user.id, { groups: [2_000_000_000] }), 404, "not_found");
    const other = await createTestUser();
    const taken = await update(admin.token, user.id, { login: other.login.toUpperCase() });
    expectError(taken, 409, "conflict");
    expect((await reloadUser(user.id)).login).toBe(user.login);
  });

  it("requires a valid token", async () => {
    const user = await createTestUser();
    await expectAuthRequired(userRoute.PUT, target(user.id, { firstname: "x" }));
  });

  it("refuses regular users, on others and on themselves (they use PUT /account)", async () => {
    const user = await createTestUser();
    const other = await createTestUser();
    await expectRefusedFor(user.token, userRoute.PUT, target(other.id, { firstname: "x" }));
    await expectRefusedFor(user.token, userRoute.PUT, target(user.id, { role: 3 }));
    expect((await reloadUser(user.id)).role).toBe(2);
  });

  it("lets a manager update a member and move them between groups they manage", async () => {
    const { manager, member, group } = await createManagedTeam();
    const second = await createTestGroup({ managers: [manager.id] });
    const res = await update(manager.token, member.id, { firstname: "Managed", groups: [group.id, second.id], role: 1 });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ firstname: "Managed", role: 1 });
    expect(await memberGroupIds(member.id)).toEqual([group.id, second.id].sort((a, b) => a - b));
  });

  it("refuses a manager: a user outside their groups, roles 3 and 4, administrators, and foreign groups", async () => {
    const { manager, member } = await createManagedTeam();
    const outsider = await createTestUser();
    await expectRefusedFor(manager.token, userRoute.PUT, target(outsider.id, { firstname: "x" }));
    await expectRefusedFor(manager.token, userRoute.PUT, target(member.id, { role: 3 }));
    await expectRefusedFor(manager.token, userRoute.PUT, target(member.id, { role: 4 }));
    expect((await reloadUser(member.id)).role).toBe(2);

    const admin = await createAdmin();
    await createTestGroup({ members: [admin.id], managers: [manager.id] });
    await expectRefusedFor(manager.token, userRoute.PUT, target(admin.id, { password: NEW_PASSWORD }));

    const foreign = await createTestGroup();
    const foreignMember = await createTestGroup({ members: [member.id] });
    await expectRefusedFor(manager.token, userRoute.PUT, target(member.id, { groups: [...(await memberGroupIds(member.id)), foreign.id] }));
    await expectRefusedFor(manager.token, userRoute.PUT, target(member.id, { groups: [] }));
    expect(await memberGroupIds(member.id)).toContain(foreignMember.id);
  });
});
