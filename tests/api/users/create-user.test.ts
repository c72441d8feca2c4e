import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as authRoute from "@/app/api/auth/route";
import * as userRoute from "@/app/api/user/route";
import { getDb } from "@/db";
import { emails, folders, groups, users } from "@/db/schema";
import { userResponse } from "@/lib/contracts/users";
import { createAdmin, createTestGroup, createTestUser, reloadUser, unique } from "../../helpers/factories";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired, expectRefusedFor } from "../../helpers/security";
import { createManagedTeam, latestLog, memberGroupIds, openDatabase } from "./fixtures";

const PASSWORD = "Fresh-pass-42";
const create = (token: string, body: unknown, query: Record<string, string> = {}) => call(userRoute.POST, { method: "POST", path: "/api/user", token, body, query });

beforeAll(openDatabase);

describe("POST /api/user", () => {
  it("creates a user with a private space who can sign in, and logs it", async () => {
    const admin = await createAdmin();
    const group = await createTestGroup();
    const login = unique("new_");
    const res = await create(admin.token, { login, password: PASSWORD, firstname: "Grace", email: `${login}@example.test`, role: 2, groups: [String(group.id)] });
    expect(res.status, res.text).toBe(201);
    const body = userResponse.strict().parse(res.body);
    expect(body).toMatchObject({ login, firstname: "Grace", role: 2, groups: [{ id: String(group.id), login: group.login }] });
    const id = Number(body.id);
    const row = await reloadUser(id);
    expect(body.roots).toEqual([row.privateRootId]);
    const db = await getDb();
    const [root] = await db.select().from(folders).where(eq(folders.id, row.privateRootId!));
    expect(root).toMatchObject({ ownerId: id, space: "private", parentId: null });
    expect(await latestLog("user", id)).toMatchObject({ type: "ADMLLOG_INSERT", userId: admin.id });
    const signIn = await call(authRoute.POST, { method: "POST", body: { user: login, password: PASSWORD }, headers: { "x-forwarded-for": "10.20.30.40" } });
    expect(signIn.status).toBe(200);
  });

  it("defaults to an external user without a private space, and mails the credentials with alert", async () => {
    const admin = await createAdmin();
    const login = unique("ext_");
    const res = await create(admin.token, { login, password: PASSWORD, email: `${login}@example.test` }, { alert: "1" });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ role: 1, roots: [] });
    const db = await getDb();
    const [mail] = await db.select().from(emails).where(eq(emails.to, `${login}@example.test`));
    expect(mail.content).toContain(PASSWORD);
  });

  it("lets a manager create a user inside the groups they manage", async () => {
    const { manager, group } = await createManagedTeam();
    const res = await create(manager.token, { login: unique("mgd_"), password: PASSWORD, role: 2 });
    expect(res.status, res.text).toBe(201);
    expect(await memberGroupIds(Number(res.body.id))).toEqual([group.id]);
  });

  it("answers 400 with details for a bad body, 404 for an unknown group, 409 for a taken login, 403 for a weak password", async () => {
    const admin = await createAdmin();
    const bad = await create(admin.token, { login: "has space", role: 9 });
    expectError(bad, 400, "invalid_request");
    expect(bad.body.details.map((d: { path: string }) => d.path).sort()).toEqual(["login", "password", "role"]);
    expectError(await create(admin.token, { login: unique("g_"), password: PASSWORD, groups: [2_000_000_000] }), 404, "not_found");
    const taken = await createTestUser();
    expectError(await create(admin.token, { login: taken.login.toUpperCase(), password: PASSWORD }), 409, "conflict");
    expectError(await create(admin.token, { login: unique("w_"), password: "short" }), 403, "weak_password");
  });

  it("requires a valid token", async () => {
    await expectAuthRequired(userRoute.POST, { method: "POST", body: { login: unique("x_"), password: PASSWORD } });
  });

  it("refuses regular users, a manager granting role 3 or 4, and a manager adding to another group", async () => {
    const user = await createTestUser();
    await expectRefusedFor(user.token, userRoute.POST, { method: "POST", body: { login: unique("x_"), password: PASSWORD } });
    const { manager } = await createManagedTeam();
    for (const role of [3, 4]) {
      await expectRefusedFor(manager.token, userRoute.POST, { method: "POST", body: { login: unique("x_"), password: PASSWORD, role } });
    }
    const foreign = await createTestGroup();
    await expectRefusedFor(manager.token, userRoute.POST, { method: "POST", body: { login: unique("x_"), password: PASSWORD, groups: [foreign.id] } });
  });

  it("refuses to add a user to a directory (LDAP) group", async () => {
    const admin = await createAdmin();
    const db = await getDb();
    const [ldapGroup] = await db.insert(groups).values({ login: unique("ldap_"), ldap: true }).returning();
    const login = unique("x_");
    expectError(await create(admin.token, { login, password: PASSWORD, groups: [ldapGroup.id] }), 403, "forbidden");
    expect(await db.select().from(users).where(eq(users.login, login))).toHaveLength(0);
  });
});
