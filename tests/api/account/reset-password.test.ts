import { and, desc, eq, sql } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import * as accountRoute from "@/app/api/account/route";
import * as authRoute from "@/app/api/auth/route";
import * as confirmRoute from "@/app/api/reset_password/[token]/route";
import * as requestRoute from "@/app/api/reset_password/route";
import { getDb } from "@/db";
import { emails, jobs, logs, passwordResets } from "@/db/schema";
import { PASSWORD_RESET_JOB } from "@/lib/server/account/request-password-reset";
import { hashToken, newToken } from "@/lib/server/auth/tokens";
import { createTestUser, PASSWORD, reloadUser, unique } from "../../helpers/factories";
import { runJobsToCompletion } from "../../helpers/jobs";
import { call, expectError } from "../../helpers/http";

// Opening the database (a fresh PGlite takes seconds) belongs to setup, not to the first test.
beforeAll(async () => {
  await getDb();
});

const NEW_PASSWORD = "Fresh-passw0rd";
const LINK = /(\S+)\/reset-password\/([\w-]+)/;
const someIp = () => ({ "x-forwarded-for": `10.88.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` });

const ask = (loginOrEmail: string, headers = someIp()) =>
  call(requestRoute.POST, { method: "POST", path: "/api/reset_password", body: { login_or_email: loginOrEmail }, headers });
const confirm = (token: string, password: string) =>
  call(confirmRoute.POST, { method: "POST", path: `/api/reset_password/${token}`, params: { token }, body: { password } });
const signIn = (login: string, password: string) => call(authRoute.POST, { method: "POST", body: { user: login, password }, headers: someIp() });

/** The last reset mail sent to `to`, with the link it carries, once the queued requests ran. */
async function lastResetMail(to: string) {
  const db = await getDb();
  await runJobsToCompletion([PASSWORD_RESET_JOB]);
  const [mail] = await db.select().from(emails).where(eq(emails.to, to)).orderBy(desc(emails.id)).limit(1);
  const match = mail?.content.match(LINK);
  return { mail, origin: match?.[1], token: match?.[2] ?? "" };
}

const savedBaseUrl = process.env.BASE_URL;
afterEach(() => {
  process.env.BASE_URL = savedBaseUrl;
});

describe("password reset", () => {
  it("mails a one-use link that sets a new password and ends every session", async () => {
    const user = await createTestUser();
    const res = await ask(user.login.toUpperCase());
    expect(res.status, res.text).toBe(204);

    const { mail, origin, token } = await lastResetMail(user.email);
    expect(mail).toMatchObject({ type: "EM_TE_TOSEND", ownerId: null });
    expect(mail.object).toMatch(/reset/i);
    expect(origin).toBe("http://coffre.test");
    expect(token.length).toBeGreaterThanOrEqual(40);
    const db = await getDb();
    const queued = await db.select().from(jobs).where(and(eq(jobs.kind, "mail.send"), sql`${jobs.payload}->>'emailId' = ${String(mail.id)}`));
    expect(queued.length).toBeGreaterThan(0);
    // Only the hash of the token is kept.
    const [row] = await db.select().from(passwordResets).where(eq(passwordResets.tokenHash, hashToken(token)));
    expect(row.userId).toBe(user.id);
    expect(row.expiresAt.getTime() - Date.now()).toBeGreaterThan(59 * 60_000);
    expect(row.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(60 * 60_000);

    expect((await confirm(token, NEW_PASSWORD)).status).toBe(204);
    expectError(await call(accountRoute.GET, { token: user.token }), 401, "unauthorized");
    expect((await signIn(user.login, NEW_PASSWORD)).status).toBe(200);
    expect((await signIn(user.login, PASSWORD)).status).toBe(401);

    const used = await confirm(token, "An0ther-password");
    expectError(used, 404, "not_found");
    expect(used.body.error).toMatch(/already used or expired/);
    const entries = await db.select().from(logs).where(and(eq(logs.objectId, String(user.id)), eq(logs.type, "ADMLLOG_PASSWORD")));
    expect(entries.map((e) => e.message).sort()).toEqual(["Password reset link requested", "Password reset through an emailed link; all sessions and OAuth2 grants ended"]);
  });

  it("finds the account by any of its addresses, ignoring case, and uses BASE_URL for the link", async () => {
    process.env.BASE_URL = "https://files.example.org/coffre/";
    const address = `${unique("mail")}@example.test`;
    const user = await createTestUser({ email: `first@example.test, ${address}` });
    expect((await ask(address.toUpperCase())).status).toBe(204);
    const { origin, token } = await lastResetMail(user.email);
    expect(origin).toBe("https://files.example.org/coffre");
    expect((await confirm(token, NEW_PASSWORD)).status).toBe(204);
  });

  it("kills the other pending links of the account once one is used", async () => {
    const user = await createTestUser();
    await ask(user.login);
    const first = (await lastResetMail(user.email)).token;
    await ask(user.login);
    const second = (await lastResetMail(user.email)).token;
    expect(second).not.toBe(first);
    expect((await confirm(second, NEW_PASSWORD)).status).toBe(204);
    expectError(await confirm(first, NEW_PASSWORD), 404, "not_found");
  });

  it("answers an unknown login or address exactly as a known one: 204, one queued job, no mail (finding 9)", async () => {
    const db = await getDb();
    const user = await createTestUser();
    const nobody = unique("nobody");
    const known = await ask(user.login);
    const unknown = await ask(nobody);
    const unknownAddress = await ask(`${unique("nobody")}@example.test`);
    for (const res of [known, unknown, unknownAddress]) {
      expect(res.status, res.text).toBe(204);
      expect(res.text).toBe("");
    }
    // The same work for each: one job, whose outcome nobody waits for.
    const queuedFor = async (name: string) =>
      (await db.select().from(jobs).where(and(eq(jobs.kind, PASSWORD_RESET_JOB), sql`${jobs.payload}->>'loginOrEmail' = ${name}`))).length;
    expect([await queuedFor(user.login), await queuedFor(nobody)]).toEqual([1, 1]);
    await runJobsToCompletion([PASSWORD_RESET_JOB]);
    expect((await lastResetMail(user.email)).token.length).toBeGreaterThan(0);
  });

  it("answers 404 for unknown or expired links", async () => {
    expectError(await confirm(newToken(), NEW_PASSWORD), 404, "not_found");
    const user = await createTestUser();
    const token = newToken();
    const db = await getDb();
    await db.insert(passwordResets).values({ tokenHash: hashToken(token), userId: user.id, expiresAt: new Date(Date.now() - 1000) });
    expectError(await confirm(token, NEW_PASSWORD), 404, "not_found");
  });

  it("mails nobody when an address is shared by several accounts, still answering 204", async () => {
    const address = `${unique("shared")}@example.test`;
    await createTestUser({ email: address });
    await createTestUser({ email: address });
    expect((await ask(address)).status).toBe(204);
    expect((await lastResetMail(address)).mail).toBeUndefined();
  });

  it("mails no link to external-directory, inactive and address-less accounts, logs why, and answers 204", async () => {
    const db = await getDb();
    const ldap = await createTestUser({ ldap: true });
    const inactive = await createTestUser({ active: false });
    const noMail = await createTestUser({ email: "" });
    for (const user of [ldap, inactive, noMail]) expect((await ask(user.login)).status).toBe(204);
    await runJobsToCompletion([PASSWORD_RESET_JOB]);
    for (const user of [ldap, inactive, noMail]) {
      expect(await db.select().from(passwordResets).where(eq(passwordResets.userId, user.id))).toHaveLength(0);
      const [entry] = await db.select().from(logs).where(and(eq(logs.objectId, String(user.id)), eq(logs.type, "ADMLLOG_PASSWORD")));
      expect(entry.message).toMatch(/^Password reset refused/);
    }
    expect((await lastResetMail(ldap.email)).mail).toBeUndefined();
  });

  it("refuses a weak password with 403 and leaves the link usable", async () => {
    const user = await createTestUser();
    await ask(user.login);
    const { token } = await lastResetMail(user.email);
    const weak = await confirm(token, "abc");
    expectError(weak, 403, "weak_password");
    expect((await reloadUser(user.id)).passwordHash).toBe(user.passwordHash);
    expect((await confirm(token, NEW_PASSWORD)).status).toBe(204);
  });

  it("throttles repeated requests with 429 and Retry-After", async () => {
    const user = await createTestUser();
    const headers = { "x-forwarded-for": `10.89.${Math.floor(Math.random() * 250)}.7` };
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 7; i++) {
      last = await ask(user.login, headers);
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 5)).toEqual([204, 204, 204, 204, 204]);
    expectError(last!, 429, "too_many_requests");
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("validates bodies and refuses other methods", async () => {
    expectError(await call(requestRoute.POST, { method: "POST", body: {} }), 400, "invalid_request");
    expectError(await call(confirmRoute.POST, { method: "POST", params: { token: "x" }, body: { password: NEW_PASSWORD } }), 400, "invalid_request");
    expectError(await call(requestRoute.GET, { method: "GET" }), 405, "method_not_allowed");
  });
});
