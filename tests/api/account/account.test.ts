import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as accountRoute from "@/app/api/account/route";
import * as authRoute from "@/app/api/auth/route";
import { getDb } from "@/db";
import { logs, sessions } from "@/db/schema";
import { accountResponse } from "@/lib/contracts/account";
import { currentLanguage } from "@/lib/server/account/current-language";
import { createAdmin, createTestUser, createToken, PASSWORD, reloadUser, unique } from "../../helpers/factories";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";

// Opening the database (a fresh PGlite takes seconds) belongs to setup, not to the first test.
beforeAll(async () => {
  await getDb();
});

const NEW_PASSWORD = "N3w-password-ok";
const someIp = () => ({ "x-forwarded-for": `10.77.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` });

async function logsOf(userId: number, type: string) {
  const db = await getDb();
  return db.select().from(logs).where(and(eq(logs.objectId, String(userId)), eq(logs.type, type)));
}

describe("current language", () => {
  it("is the account's own language unless auto", () => {
    expect(currentLanguage("fr", "de-DE,de;q=0.9")).toBe("fr");
  });
  it("follows Accept-Language by quality for auto, Chinese as cn, English by default", () => {
    expect(currentLanguage("auto", "de-CH, fr;q=0.9")).toBe("de");
    expect(currentLanguage("auto", "fr;q=0.5, es;q=0.8, xx")).toBe("es");
    expect(currentLanguage("auto", "zh-TW,zh;q=0.9")).toBe("cn");
    expect(currentLanguage("auto", "it;q=0, pt-BR;q=0.1")).toBe("pt");
    expect(currentLanguage("auto", "ja, *")).toBe("en");
    expect(currentLanguage("auto", null)).toBe("en");
  });
});

describe("GET /api/account", () => {
  it("returns the caller as a User with current_language", async () => {
    const user = await createTestUser({ language: "auto", phone: "+33 1 23" });
    const res = await call(accountRoute.GET, { token: user.token, headers: { "accept-language": "pt-BR,pt;q=0.9,en;q=0.5" } });
    expect(res.status, res.text).toBe(200);
    const body = accountResponse.parse(res.body);
    expect(body).toMatchObject({ id: String(user.id), login: user.login, phone: "+33 1 23", language: "auto", current_language: "pt", roots: [user.privateRootId] });
    expect(body).not.toHaveProperty("password_hash");
    expect(JSON.stringify(res.body)).not.toContain("argon2");
  });

  it("reads the AsId user for an administrator", async () => {
    const admin = await createAdmin();
    const user = await createTestUser({ language: "de" });
    const res = await call(accountRoute.GET, { token: admin.token, headers: { asid: String(user.id) } });
    expect(res.body).toMatchObject({ id: String(user.id), current_language: "de" });
  });

  it("needs a valid token", async () => {
    await expectAuthRequired(accountRoute.GET, {});
  });
});

describe("PUT /api/account", () => {
  it("changes profile fields and language, logs ADMLLOG_UPDATE", async () => {
    const user = await createTestUser();
    const res = await call(accountRoute.PUT, {
      method: "PUT",
      token: user.token,
      body: { firstname: "Ada", lastname: "Lovelace", email: "ada@example.test", phone: "123", organization: "Analytical", language: "fr", id: "999", login: "ignored", password: PASSWORD },
    });
    expect(res.status, res.text).toBe(200);
    expect(accountResponse.parse(res.body)).toMatchObject({ firstname: "Ada", lastname: "Lovelace", email: "ada@example.test", language: "fr", current_language: "fr", login: user.login });
    const stored = await reloadUser(user.id);
    expect(stored).toMatchObject({ firstname: "Ada", lastname: "Lovelace", phone: "123", organization: "Analytical", language: "fr", login: user.login });
    const [entry] = await logsOf(user.id, "ADMLLOG_UPDATE");
    expect(entry.message).toContain("firstname");
    expect(entry.userId).toBe(user.id);
  });

  it("accepts PATCH as a synonym", async () => {
    const user = await createTestUser();
    const res = await call(accountRoute.PATCH, { method: "PATCH", token: user.token, body: { firstname: "Grace" } });
    expect(res.status).toBe(200);
    expect((await reloadUser(user.id)).firstname).toBe("Grace");
  });

  it("changes the password with the old one, keeps this session and ends the others", async () => {
    const user = await createTestUser();
    const other = await createToken(user.id);
    const res = await call(accountRoute.PUT, { method: "PUT", token: user.token, body: { old_password: PASSWORD, new_password: NEW_PASSWORD } });
    expect(res.status, res.text).toBe(200);
    expect((await call(accountRoute.GET, { token: user.token })).status).toBe(200);
    expectError(await call(accountRoute.GET, { token: other }), 401, "unauthorized");
    const db = await getDb();
    expect(await db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(1);
    const signIn = (password: string) => call(authRoute.POST, { method: "POST", body: { user: user.login, password }, headers: someIp() });
    expect((await signIn(NEW_PASSWORD)).status).toBe(200);
    expect((await signIn(PASSWORD)).status).toBe(401);
    expect(await logsOf(user.id, "ADMLLOG_PASSWORD")).toHaveLength(1);
  });

  it("refuses a wrong or missing old password and a weak new one with 403", async () => {
    const user = await createTestUser();
    const wrong = await call(accountRoute.PUT, { method: "PUT", token: user.token, body: { old_password: "nope", new_password: NEW_PASSWORD } });
    expectError(wrong, 403, "forbidden");
    expect(wrong.body.error).toMatch(/old_password/);
    expectError(await call(accountRoute.PUT, { method: "PUT", token: user.token, body: { new_password: NEW_PASSWORD } }), 403, "forbidden");
    const weak = await call(accountRoute.PUT, { method: "PUT", token: user.token, body: { old_password: PASSWORD, new_password: "short" } });
    expectError(weak, 403, "weak_password");
    expect(weak.body.error).toMatch(/at least \d+ characters/);
    const stored = await reloadUser(user.id);
    expect((await call(authRoute.POST, { method: "POST", body: { user: stored.login, password: PASSWORD }, headers: someIp() })).status).toBe(200);
  });

  it("throttles guesses of the old password with 429", async () => {
    const user = await createTestUser();
    const headers = { "x-forwarded-for": `10.78.${Math.floor(Math.random() * 250)}.1` };
    let last;
    for (let i = 0; i < 6; i++) {
      last = await call(accountRoute.PUT, { method: "PUT", token: user.token, headers, body: { old_password: `guess${i}`, new_password: NEW_PASSWORD } });
    }
    expectError(last!, 429, "too_many_requests");
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("refuses profile changes when the administrator forbade them, but not language or password", async () => {
    const user = await createTestUser({ canEditOptions: false, firstname: "Fixed" });
    const refused = await call(accountRoute.PUT, { method: "PUT", token: user.token, body: { firstname: "Changed" } });
    expectError(refused, 403, "forbidden");
    expect((await reloadUser(user.id)).firstname).toBe("Fixed");
    // The same values sent back are not changes.
    const same = await call(accountRoute.PUT, { method: "PUT", token: user.token, body: { firstname: "Fixed", language: "it" } });
    expect(same.status, same.text).toBe(200);
    expect(same.body.language).toBe("it");
    const password = await call(accountRoute.PUT, { method: "PUT", token: user.token, body: { old_password: PASSWORD, new_password: NEW_PASSWORD } });
    expect(password.status).toBe(200);
  });

  it("is unavailable for external-directory accounts", async () => {
    const user = await createTestUser({ ldap: true });
    const res = await call(accountRoute.PUT, { method: "PUT", token: user.token, body: { language: "fr" } });
    expectError(res, 403, "forbidden");
    expect(res.body.error).toBe("Unavailable for external-directory accounts");
    expect((await reloadUser(user.id)).language).toBe("auto");
  });

  it("answers 400 with details for invalid fields", async () => {
    const user = await createTestUser();
    const res = await call(accountRoute.PUT, { method: "PUT", token: user.token, body: { language: "klingon", firstname: "x".repeat(300) } });
    expectError(res, 400, "invalid_request");
    expect(res.body.details.map((d: { path: string }) => d.path).sort()).toEqual(["firstname", "language"]);
  });

  it("needs a valid token and refuses other methods", async () => {
    await expectAuthRequired(accountRoute.PUT, { method: "PUT", body: { firstname: unique() } });
    const res = await call(accountRoute.POST, { method: "POST", body: {} });
    expectError(res, 405, "method_not_allowed");
  });
});

describe("PUT /api/account: a new email re-authenticates (issue 25, finding 7)", () => {
  it("a session alone cannot point the account's mails elsewhere: 400 reauth_required, 403 when wrong, then done with the password", async () => {
    const user = await createTestUser();
    const change = (body: Record<string, unknown>) => call(accountRoute.PUT, { method: "PUT", token: user.token, body: { email: "thief@evil.example", ...body }, headers: someIp() });
    const missing = await change({});
    expectError(missing, 400, "reauth_required");
    expect(missing.body.details).toEqual({ methods: ["password"] });
    expectError(await change({ password: "not-it" }), 403, "forbidden");
    expect((await reloadUser(user.id)).email).toBe(user.email);

    expect((await change({ password: PASSWORD })).status).toBe(200);
    expect((await reloadUser(user.id)).email).toBe("thief@evil.example");
    // The same address sent back is no change, and other fields need nothing.
    expect((await change({ firstname: "Still" })).status).toBe(200);
  });

  it("the old password of a password change confirms a new email in the same request", async () => {
    const user = await createTestUser();
    const res = await call(accountRoute.PUT, { method: "PUT", token: user.token, body: { email: "new@example.test", old_password: PASSWORD, new_password: NEW_PASSWORD }, headers: someIp() });
    expect(res.status, res.text).toBe(200);
    expect((await reloadUser(user.id)).email).toBe("new@example.test");
  });

  it("guesses of the password are throttled like sign-ins", async () => {
    const user = await createTestUser();
    const headers = someIp();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await call(accountRoute.PUT, { method: "PUT", token: user.token, body: { email: "x@evil.example", password: `guess-${i}` }, headers })).status);
    expect(statuses).toEqual([403, 403, 403, 403, 403, 429]);
  });
});
