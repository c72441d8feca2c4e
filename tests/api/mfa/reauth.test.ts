import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as mfaRoute from "@/app/api/account/mfa/route";
import * as otpRoute from "@/app/api/account/mfa/otp/route";
import * as recoveryRoute from "@/app/api/account/mfa/recovery/route";
import * as smsRoute from "@/app/api/account/mfa/sms/route";
import * as webauthnRoute from "@/app/api/account/mfa/webauthn/route";
import * as keyRoute from "@/app/api/account/mfa/webauthn/[credentialId]/route";
import * as optionsRoute from "@/app/api/account/mfa/webauthn/options/route";
import { getDb } from "@/db";
import { mfaWebauthnCredentials, sessions, userMfa } from "@/db/schema";
import { createTestUser, createToken, PASSWORD, type TestUser } from "../../helpers/factories";
import { call, expectError, type CallResult } from "../../helpers/http";
import { enrolKey, enrolOtp, enrolSms, ip, ORIGIN, setConfig, totp, uniquePhone } from "./mfa-helpers";
import { SoftAuthenticator } from "./soft-authenticator";

// Issue 25, finding 7: a security key was removed with a session alone, and a session alone
// registered a new one. Every change of a second factor re-authenticates now (api.md, "Account
// security"): `password`, or a current `code` for accounts without a local password; 400
// reauth_required without it, 403 when wrong, throttled like sign-ins.
beforeAll(() => setConfig({ mfa_sms: true }), 120_000);

type Change = { name: string; run: (user: TestUser, body: Record<string, unknown>, headers?: Record<string, string>) => Promise<CallResult>; ok: number };

/** Each change of a factor, on an account that has what it changes. */
async function changesFor(user: TestUser): Promise<Change[]> {
  const { id } = await enrolKey(user);
  await enrolSms(user);
  const as = (headers?: Record<string, string>) => ({ token: user.token, headers: headers ?? ip() });
  return [
    { name: "POST /account/mfa/webauthn/options", ok: 200, run: (u, body, h) => call(optionsRoute.POST, { method: "POST", body, ...as(h) }) },
    { name: "DELETE /account/mfa/webauthn/(id)", ok: 204, run: (u, body, h) => call(keyRoute.DELETE, { method: "DELETE", params: { credentialId: String(id) }, body, ...as(h) }) },
    { name: "POST /account/mfa/otp", ok: 200, run: (u, body, h) => call(otpRoute.POST, { method: "POST", body, ...as(h) }) },
    { name: "POST /account/mfa/recovery", ok: 200, run: (u, body, h) => call(recoveryRoute.POST, { method: "POST", body, ...as(h) }) },
    { name: "DELETE /account/mfa/sms", ok: 200, run: (u, body, h) => call(smsRoute.DELETE, { method: "DELETE", body, ...as(h) }) },
  ];
}

describe("re-authentication of second-factor changes", () => {
  it("every change answers 400 reauth_required without the password, 403 with a wrong one, and goes through with the right one", async () => {
    const user = await createTestUser();
    for (const change of await changesFor(user)) {
      const missing = await change.run(user, {});
      expectError(missing, 400, "reauth_required");
      expect(missing.body.details, change.name).toEqual({ methods: ["password"] });
      const wrong = await change.run(user, { password: "not-the-password" });
      expectError(wrong, 403, "forbidden");
      expect(wrong.body.details.reason, change.name).toBe("wrong_confirmation");
      const done = await change.run(user, { password: PASSWORD });
      expect(done.status, `${change.name}: ${done.text}`).toBe(change.ok);
    }
    // The key and the phone are gone; the authenticator app is pending, not on.
    const state = (await call(mfaRoute.GET, { token: user.token })).body;
    expect(state).toMatchObject({ webauthn: [], sms: false, otp: false, reauth: "password" });
  });

  it("a session alone neither removes a security key nor registers a new one", async () => {
    const user = await createTestUser();
    const { id } = await enrolKey(user);
    expectError(await call(keyRoute.DELETE, { method: "DELETE", token: user.token, params: { credentialId: String(id) } }), 400, "reauth_required");
    const db = await getDb();
    expect(await db.select().from(mfaWebauthnCredentials).where(eq(mfaWebauthnCredentials.id, id))).toHaveLength(1);

    expectError(await call(optionsRoute.POST, { method: "POST", token: user.token }), 400, "reauth_required");
    // Without options asked with the password there is no challenge to answer.
    const key = new SoftAuthenticator(ORIGIN);
    const forged = { rp: { id: "coffre.test", name: "x" }, user: { id: "dXNlcg", name: user.login, displayName: user.login }, challenge: "Zm9yZ2VkLWNoYWxsZW5nZS1mb3JnZWQtY2hhbGxlbmdl", pubKeyCredParams: [{ type: "public-key", alg: -7 }] };
    expectError(await call(webauthnRoute.POST, { method: "POST", token: user.token, body: { name: "Intruder", response: key.register(forged) } }), 409, "conflict");
    expect(await db.select().from(mfaWebauthnCredentials).where(eq(mfaWebauthnCredentials.userId, user.id))).toHaveLength(1);
  });

  it("a code of the app does not stand for the password of an account that has one", async () => {
    const user = await createTestUser();
    const { secret } = await enrolOtp(user);
    expectError(await call(otpRoute.DELETE, { method: "DELETE", token: user.token, body: { code: totp(secret, 1) }, headers: ip() }), 400, "reauth_required");
  });

  it("is throttled like sign-ins: per address, and per account from every address", async () => {
    const user = await createTestUser();
    const { id } = await enrolKey(user);
    const remove = (password: string, headers: Record<string, string>) => call(keyRoute.DELETE, { method: "DELETE", token: user.token, params: { credentialId: String(id) }, body: { password }, headers });
    const one = ip();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await remove(`wrong-${i}`, one)).status);
    expect(statuses).toEqual([403, 403, 403, 403, 403, 429]);
    expectError(await remove(PASSWORD, one), 429, "too_many_requests");

    let last = 0;
    for (let i = 0; i < 30 && last !== 429; i++) last = (await remove(`wrong-${i}`, ip())).status;
    expect(last).toBe(429);
    const anywhere = await remove(PASSWORD, ip());
    expectError(anywhere, 429, "too_many_requests");
    expect(Number(anywhere.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("accounts without a local password (directory, SSO)", () => {
  it("confirm with a current code of their authenticator app, not a password", async () => {
    const user = await createTestUser({ passwordHash: null });
    const { secret } = await enrolOtp(user);
    expect((await call(mfaRoute.GET, { token: user.token })).body.reauth).toBe("code");
    const missing = await call(recoveryRoute.POST, { method: "POST", token: user.token, body: { password: PASSWORD } });
    expectError(missing, 400, "reauth_required");
    expect(missing.body.details).toEqual({ methods: ["code"] });
    expectError(await call(recoveryRoute.POST, { method: "POST", token: user.token, body: { code: totp(secret, 5) }, headers: ip() }), 403, "forbidden");
    const renewed = await call(recoveryRoute.POST, { method: "POST", token: user.token, body: { code: totp(secret, 1) }, headers: ip() });
    expect(renewed.status, renewed.text).toBe(200);
  });

  it("with nothing to ask, need a sign-in of the last 10 minutes", async () => {
    const user = await createTestUser({ passwordHash: null });
    const old = await createToken(user.id, { ageMinutes: 11 });
    const stale = await call(otpRoute.POST, { method: "POST", token: old, body: { password: "anything" } });
    expectError(stale, 400, "reauth_required");
    expect(stale.body.details).toEqual({ methods: ["sign_in"] });
    expect((await call(mfaRoute.GET, { token: old })).body.reauth).toBe("sign_in");
    const fresh = await createToken(user.id, { ageMinutes: 2 });
    expect((await call(otpRoute.POST, { method: "POST", token: fresh, body: {} })).status).toBe(200);
    // An OAuth2 token is issued afresh at each refresh: it stands for no sign-in.
    const db = await getDb();
    await db.update(sessions).set({ scope: "accountsec.readwrite" }).where(eq(sessions.userId, user.id));
    expectError(await call(smsRoute.POST, { method: "POST", path: "/api/account/mfa/sms", token: fresh, body: { phone: uniquePhone() } }), 400, "reauth_required");
    expect(await db.select().from(userMfa).where(eq(userMfa.userId, user.id))).toMatchObject([{ otpEnabledAt: null }]);
  });
});
