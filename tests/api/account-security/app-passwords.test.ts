import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as appPasswordRoute from "@/app/api/account/app_password/[appPasswordId]/route";
import * as appPasswordsRoute from "@/app/api/account/app_passwords/route";
import * as accountRoute from "@/app/api/account/route";
import * as sessionRoute from "@/app/api/account/session/[sessionId]/route";
import * as sessionsRoute from "@/app/api/account/sessions/route";
import * as authRoute from "@/app/api/auth/route";
import * as rootsRoute from "@/app/api/roots/route";
import { getDb } from "@/db";
import { sessions } from "@/db/schema";
import { hashToken } from "@/lib/server/auth/tokens";
import type { CredentialsConfig } from "next-auth/providers/credentials";
import { appPasswordResponse, createdAppPasswordResponse } from "@/lib/contracts/account-security";
import { getAuthOptions } from "@/lib/server/auth/next-auth-options";
import { davHandler } from "@/lib/server/dav/dav-handler";
import { createTestUser, PASSWORD, type TestUser } from "../../helpers/factories";
import { call, expectError } from "../../helpers/http";
import { serveNode } from "../../helpers/node-server";
import { expectAuthRequired } from "../../helpers/security";
import { enrolOtp, ip } from "../mfa/mfa-helpers";

// api.md, "Account security": app passwords (issue 29, item 9), over the route exports and, for
// WebDAV, over real HTTP through the handler server.ts mounts.
let server: Awaited<ReturnType<typeof serveNode>>;
beforeAll(async () => {
  await getDb();
  server = await serveNode(davHandler);
}, 120_000);
afterAll(() => server.close());

const create = (user: TestUser, body: Record<string, unknown>, headers = ip()) =>
  call(appPasswordsRoute.POST, { method: "POST", path: "/api/account/app_passwords", token: user.token, body, headers });
async function newAppPassword(user: TestUser, name = "Laptop Finder") {
  const res = await create(user, { name, password: PASSWORD });
  expect(res.status, res.text).toBe(201);
  return createdAppPasswordResponse.parse(res.body);
}
const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString("base64")}`;
const propfind = (login: string, password: string, headers: Record<string, string> = ip()) =>
  fetch(`${server.url}/dav/`, { method: "PROPFIND", headers: { depth: "1", authorization: basic(login, password), ...headers } });
const authWith = (login: string, password: string, extra: Record<string, unknown> = {}) =>
  call(authRoute.POST, { method: "POST", path: "/api/auth", body: { user: login, password, ...extra }, headers: ip() });

describe("POST /account/app_passwords", () => {
  it("creates one, answered once with a password of five groups, listed without it", async () => {
    const user = await createTestUser();
    const made = await newAppPassword(user, "Phone rclone");
    expect(made.name).toBe("Phone rclone");
    expect(made.password).toMatch(/^[a-z2-9]{6}(-[a-z2-9]{6}){4}$/);
    const listed = await call(appPasswordsRoute.GET, { path: "/api/account/app_passwords", token: user.token });
    expect(listed.status).toBe(200);
    expect(listed.body.nb_total_objects).toBe(1);
    expect(appPasswordResponse.strict().parse(listed.body.objects[0])).toMatchObject({ id: made.id, name: "Phone rclone", last_seen_at: null });
    expect(listed.text).not.toContain(made.password);
  });

  it("needs the password: 400 reauth_required without it, 403 when wrong, throttled", async () => {
    const user = await createTestUser();
    const missing = await create(user, { name: "x" });
    expectError(missing, 400, "reauth_required");
    expect(missing.body.details).toEqual({ methods: ["password"] });
    const headers = ip();
    for (let i = 0; i < 5; i++) expectError(await create(user, { name: "x", password: "wrong" }, headers), 403, "forbidden");
    // Past five wrong answers the pair is locked (1 s, doubling): guesses are refused unanswered.
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await create(user, { name: "x", password: "wrong" }, headers)).status);
    expect(statuses).toContain(429);
    const listed = await call(appPasswordsRoute.GET, { path: "/api/account/app_passwords", token: user.token });
    expect(listed.body.nb_total_objects).toBe(0);
  });

  it("refuses NUL, control and bidirectional characters, empty and over-long names", async () => {
    const user = await createTestUser();
    for (const name of ["a\u0000b", "evil\u202Etxt.exe", "tab\there", "", "   ", "x".repeat(101)]) {
      expectError(await create(user, { name, password: PASSWORD }), 400);
    }
    expect((await create(user, { name: "x".repeat(100), password: PASSWORD })).status).toBe(201);
  });

  it("holds an account to 50 app passwords (409 past them)", async () => {
    const user = await createTestUser();
    const db = await getDb();
    await db.insert(sessions).values(Array.from({ length: 50 }, (_, i) => ({ tokenHash: hashToken(`filler-${user.id}-${i}`), userId: user.id, kind: "app_password", name: `old ${i}`, scope: "files.readwrite" })));
    const res = await create(user, { name: "one more", password: PASSWORD });
    expectError(res, 409, "conflict");
    expect(res.body.details).toEqual({ reason: "too_many_app_passwords" });
  });

  it("refuses no token, an unknown token and an expired one", async () => {
    await expectAuthRequired(appPasswordsRoute.POST, { method: "POST", path: "/api/account/app_passwords", body: { name: "x", password: PASSWORD } });
    await expectAuthRequired(appPasswordsRoute.GET, { path: "/api/account/app_passwords" });
    await expectAuthRequired(appPasswordRoute.DELETE, { method: "DELETE", path: "/api/account/app_password/1", params: { appPasswordId: "1" } });
  });
});

describe("signing in with an app password", () => {
  it("works over WebDAV Basic for an account with an authenticator app, where the password is refused", async () => {
    const user = await createTestUser();
    await enrolOtp(user);
    expect((await propfind(user.login, PASSWORD)).status).toBe(401);
    const { password, id } = await newAppPassword(user);
    const res = await propfind(user.login, password, { ...ip(), "user-agent": "rclone/v1.68.1" });
    expect(res.status).toBe(207);
    expect(await res.text()).toContain("<D:href>/dav/Private/</D:href>");
    // Listed as a session of kind app_password, with where it was last used.
    const listed = (await call(sessionsRoute.GET, { path: "/api/account/sessions", token: user.token })).body.objects;
    expect(listed.find((s: { id: number }) => s.id === id)).toMatchObject({ kind: "app_password", name: "Laptop Finder", user_agent: "rclone/v1.68.1", current: false });
  });

  it("POST /auth with app_password: 1 opens a session with the files scopes only", async () => {
    const user = await createTestUser();
    await enrolOtp(user);
    const { password } = await newAppPassword(user);
    const res = await authWith(user.login, password, { app_password: 1 });
    expect(res.status, res.text).toBe(200);
    const token = res.body.token as string;
    expect((await call(rootsRoute.GET, { path: "/api/roots", token })).status).toBe(200);
    expectError(await call(accountRoute.GET, { path: "/api/account", token }), 403, "insufficient_scope");
    expectError(await call(sessionsRoute.GET, { path: "/api/account/sessions", token }), 403, "insufficient_scope");
    expectError(await call(appPasswordsRoute.POST, { method: "POST", path: "/api/account/app_passwords", token, body: { name: "more", password } }), 403, "insufficient_scope");
  });

  it("never signs in otherwise: POST /auth without the flag, as a bearer token, or with another user's login", async () => {
    const user = await createTestUser();
    const other = await createTestUser();
    const { password } = await newAppPassword(user);
    expectError(await authWith(user.login, password), 401, "unauthorized");
    expectError(await call(accountRoute.GET, { path: "/api/account", token: password }), 401, "unauthorized");
    expectError(await call(rootsRoute.GET, { path: "/api/roots", token: password }), 401, "unauthorized");
    expect((await fetch(`${server.url}/dav/`, { method: "PROPFIND", headers: { depth: "0", authorization: `Bearer ${password}` } })).status).toBe(401);
    expectError(await authWith(other.login, password, { app_password: 1 }), 401, "unauthorized");
    expect((await propfind(other.login, password)).status).toBe(401);
    // Nor the web sign-in (next-auth's credentials).
    const options = await getAuthOptions();
    const provider = options.providers[0] as unknown as { options: CredentialsConfig };
    const credentials = { login: user.login, password };
    const web = provider.options.authorize(credentials as never, { headers: { ...ip(), host: "coffre.test" }, body: credentials, query: {}, method: "POST" });
    await expect(web).rejects.toThrow(/wrong_credentials/);
    // The account's own password is not an app password.
    expectError(await authWith(user.login, PASSWORD, { app_password: 1 }), 401, "unauthorized");
  });

  it("throttles guesses of app passwords like sign-ins", async () => {
    const user = await createTestUser();
    const { password } = await newAppPassword(user);
    const headers = ip();
    const guess = async () => (await propfind(user.login, "aaaaaa-bbbbbb-cccccc-dddddd-eeeeee", headers)).status;
    for (let i = 0; i < 5; i++) expect(await guess()).toBe(401);
    // Past five wrong guesses the pair is locked (1 s, doubling): guesses are refused unanswered.
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push(await guess());
    expect(statuses).toContain(429);
    // The owner, from another address, is not locked out.
    expect((await propfind(user.login, password)).status).toBe(207);
  });
});

describe("DELETE /account/app_password/(id)", () => {
  it("revokes it: WebDAV refuses it and the sessions opened with it end at once", async () => {
    const user = await createTestUser();
    await enrolOtp(user);
    const { password, id } = await newAppPassword(user);
    const token = (await authWith(user.login, password, { app_password: 1 })).body.token as string;
    expect((await propfind(user.login, password)).status).toBe(207);
    const res = await call(appPasswordRoute.DELETE, { method: "DELETE", path: `/api/account/app_password/${id}`, token: user.token, params: { appPasswordId: String(id) } });
    expect(res.status, res.text).toBe(204);
    expect((await propfind(user.login, password)).status).toBe(401);
    expectError(await call(rootsRoute.GET, { path: "/api/roots", token }), 401, "unauthorized");
    const listed = await call(appPasswordsRoute.GET, { path: "/api/account/app_passwords", token: user.token });
    expect(listed.body.nb_total_objects).toBe(0);
  });

  it("ending its session in the sessions list revokes it too", async () => {
    const user = await createTestUser();
    const { password, id } = await newAppPassword(user);
    const res = await call(sessionRoute.DELETE, { method: "DELETE", path: `/api/account/session/${id}`, token: user.token, params: { sessionId: String(id) } });
    expect(res.status).toBe(204);
    expect((await propfind(user.login, password)).status).toBe(401);
  });

  it("answers 404 for another user's app password, which keeps working, and for a session id that is not an app password", async () => {
    const user = await createTestUser();
    const other = await createTestUser();
    const theirs = await newAppPassword(other);
    const del = (id: number) => call(appPasswordRoute.DELETE, { method: "DELETE", path: `/api/account/app_password/${id}`, token: user.token, params: { appPasswordId: String(id) } });
    expectError(await del(theirs.id), 404, "not_found");
    expect((await propfind(other.login, theirs.password)).status).toBe(207);
    const mySessionId = (await call(sessionsRoute.GET, { path: "/api/account/sessions", token: user.token })).body.objects[0].id as number;
    expectError(await del(mySessionId), 404, "not_found");
  });
});
