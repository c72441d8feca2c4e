import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as accountRoute from "@/app/api/account/route";
import * as mfaRoute from "@/app/api/account/mfa/route";
import * as otpRoute from "@/app/api/account/mfa/otp/route";
import * as recoveryRoute from "@/app/api/account/mfa/recovery/route";
import * as completeRoute from "@/app/api/auth/mfa/route";
import * as foldersRoute from "@/app/api/folders/route";
import { getDb } from "@/db";
import { sessions, userMfa } from "@/db/schema";
import { accountResponse } from "@/lib/contracts/account";
import { enableResponse, mfaStateResponse } from "@/lib/contracts/mfa";
import { hashToken } from "@/lib/server/auth/tokens";
import { createAdmin, createTestUser, latestLog, PASSWORD } from "../../helpers/factories";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";
import { enrolOtp, firstStep, ip, signIn, totp } from "./mfa-helpers";

const complete = (body: Record<string, unknown>, headers = ip()) => call(completeRoute.POST, { method: "POST", body, headers });

// The embedded database opens (and migrates) on first use: not inside the first test's time.
beforeAll(() => getDb(), 120_000);

describe("authenticator app (TOTP) set-up", () => {
  it("gives a pending secret and its otpauth address, enables it with a code, shows recovery codes once", async () => {
    const user = await createTestUser();
    const start = await call(otpRoute.POST, { method: "POST", token: user.token, body: { password: PASSWORD }, headers: ip() });
    expect(start.status).toBe(200);
    expect(start.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(start.body.otpauth_url);
    expect(url.protocol).toBe("otpauth:");
    expect(url.searchParams.get("secret")).toBe(start.body.secret);
    expect(url.searchParams.get("algorithm")).toBe("SHA1");
    expect(url.searchParams.get("digits")).toBe("6");
    expect(url.searchParams.get("period")).toBe("30");
    expect(decodeURIComponent(url.pathname)).toContain(user.login);

    // Pending: nothing changes at sign-in yet, and the secret is stored encrypted.
    expect((await signIn(user)).status).toBe(200);
    const db = await getDb();
    const [row] = await db.select().from(userMfa).where(eq(userMfa.userId, user.id));
    expect(row.otpPendingSecret).toMatch(/^v1\./);
    expect(row.otpPendingSecret).not.toContain(start.body.secret);

    const wrong = await call(otpRoute.PUT, { method: "PUT", token: user.token, body: { code: totp(start.body.secret, 5) }, headers: ip() });
    expectError(wrong, 400, "invalid_request");
    expect(wrong.body.details).toEqual([expect.objectContaining({ path: "code" })]);

    const enabled = await call(otpRoute.PUT, { method: "PUT", token: user.token, body: { code: totp(start.body.secret) }, headers: ip() });
    expect(enabled.status, enabled.text).toBe(200);
    const state = enableResponse.parse(enabled.body);
    expect(state).toMatchObject({ otp: true, sms: false, webauthn: [], recovery_codes_left: 10, required: false, enrollment_required: false });
    expect(state.recovery_codes).toHaveLength(10);
    expect(new Set(state.recovery_codes).size).toBe(10);
    expect((await latestLog("user", user.id, "ADMLLOG_UPDATE"))?.message).toMatch(/authenticator app set up/);

    const read = mfaStateResponse.parse((await call(mfaRoute.GET, { token: user.token })).body);
    expect(read).toMatchObject({ otp: true, recovery_codes_left: 10 });
    expect((await call(mfaRoute.GET, { token: user.token })).body.recovery_codes).toBeUndefined();
    const account = accountResponse.parse((await call(accountRoute.GET, { token: user.token })).body);
    expect(account).toMatchObject({ has_mfa_otp: true, has_mfa_sms: false, has_mfa_yubikey: false, can_mfa_otp: true, can_mfa_yubikey: true, mfa_required: false });

    // A second set-up is refused while one is active.
    expectError(await call(otpRoute.POST, { method: "POST", token: user.token, body: { password: PASSWORD } }), 409, "conflict");
  });

  it("refuses to enable without a pending secret, and bad codes with 400", async () => {
    const user = await createTestUser();
    expectError(await call(otpRoute.PUT, { method: "PUT", token: user.token, body: { code: "123456" } }), 409, "conflict");
    expectError(await call(otpRoute.PUT, { method: "PUT", token: user.token, body: { code: "12ab56" } }), 400, "invalid_request");
    expectError(await call(otpRoute.PUT, { method: "PUT", token: user.token, body: {} }), 400, "invalid_request");
  });

  it("needs a session, and refuses acting through AsId", async () => {
    await expectAuthRequired(mfaRoute.GET, {});
    await expectAuthRequired(otpRoute.POST, { method: "POST" });
    await expectAuthRequired(otpRoute.PUT, { method: "PUT", body: { code: "123456" } });
    const admin = await createAdmin();
    const user = await createTestUser();
    expectError(await call(mfaRoute.GET, { token: admin.token, headers: { AsId: String(user.id) } }), 403, "forbidden");
    expectError(await call(otpRoute.POST, { method: "POST", token: admin.token, headers: { AsId: String(user.id) } }), 403, "forbidden");
  });
});

describe("signing in with an authenticator app", () => {
  it("answers the right password with 401 mfa_required, then POST /auth/mfa opens the session", async () => {
    const user = await createTestUser();
    const { secret } = await enrolOtp(user);
    const details = await firstStep(user);
    expect(details.methods).toEqual(["otp", "recovery"]);
    expect(details.mfa_token).toMatch(/^[\w-]{40,}$/);

    const res = await complete({ mfa_token: details.mfa_token, method: "otp", code: totp(secret, 1) });
    expect(res.status, res.text).toBe(200);
    expect(res.body.token).toMatch(/^[\w-]{40,}$/);
    expect((await call(foldersRoute.GET, { token: res.body.token })).status).toBe(200);
    const db = await getDb();
    const [session] = await db.select().from(sessions).where(eq(sessions.tokenHash, hashToken(res.body.token)));
    expect(session).toMatchObject({ userId: user.id, kind: "api" });
    expect((await latestLog("user", user.id, "ADMLLOG_LOGIN"))?.message).toMatch(/second factor \(otp\)/);

    // The token is spent: a second session cannot come out of it.
    const again = await complete({ mfa_token: details.mfa_token, method: "otp", code: totp(secret, 1) });
    expectError(again, 401, "unauthorized");
    expect(again.body.details.reason).toBe("mfa_token_expired");
  });

  it("a wrong password never reaches the second step", async () => {
    const user = await createTestUser();
    await enrolOtp(user);
    const res = await call((await import("@/app/api/auth/route")).POST, { method: "POST", body: { user: user.login, password: "wrong" }, headers: ip() });
    expectError(res, 401, "unauthorized");
    expect(res.body.details).toBeUndefined();
  });

  it("accepts the code beside the password on POST /auth, once", async () => {
    const user = await createTestUser();
    const { secret } = await enrolOtp(user);
    const code = totp(secret, 1);
    const ok = await signIn(user, { code });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.token).toMatch(/^[\w-]{40,}$/);

    // The same code again within its window: refused (replay), and so is an older step's code.
    const replay = await signIn(user, { code });
    expectError(replay, 401, "unauthorized");
    expect(replay.body.details.reason).toBe("wrong_code");
    expectError(await signIn(user, { code: totp(secret, 0) }), 401, "unauthorized");
    expectError(await signIn(user, { code: totp(secret, -1) }), 401, "unauthorized");
    expect((await latestLog("user", user.id, "ADMLLOG_LOGIN_FAILED"))?.message).toMatch(/Wrong second-factor code/);
  });

  it("refuses a reused code on the second step too", async () => {
    const user = await createTestUser();
    const { secret } = await enrolOtp(user);
    const code = totp(secret, 1);
    expect((await complete({ mfa_token: (await firstStep(user)).mfa_token, method: "otp", code })).status).toBe(200);
    const replay = await complete({ mfa_token: (await firstStep(user)).mfa_token, method: "otp", code });
    expectError(replay, 401, "unauthorized");
    expect(replay.body.details.reason).toBe("wrong_code");
  });

  it("refuses wrong codes, spends the token after five, and throttles guesses like passwords (429, Retry-After)", async () => {
    const user = await createTestUser();
    const { secret } = await enrolOtp(user);
    const from = ip();
    const { mfa_token } = await firstStep(user, from);
    for (let i = 0; i < 5; i++) {
      const wrong = await complete({ mfa_token, method: "otp", code: "000000" === totp(secret, 1) ? "111111" : "000000" }, from);
      expectError(wrong, 401, "unauthorized");
      expect(wrong.body.details.reason).toBe("wrong_code");
    }
    // The address is now blocked for this account, even with the right code and a new token.
    const blocked = await complete({ mfa_token: (await firstStep(user, from)).mfa_token, method: "otp", code: totp(secret, 1) }, from);
    expectError(blocked, 429, "too_many_requests");
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    // The token that took five wrong answers is spent, from any address.
    expectError(await complete({ mfa_token, method: "otp", code: totp(secret, 1) }), 401, "unauthorized");
    // The owner elsewhere is not locked out.
    const owner = await complete({ mfa_token: (await firstStep(user)).mfa_token, method: "otp", code: totp(secret, 1) });
    expect(owner.status, owner.text).toBe(200);
  });

  it("refuses another account's code and unknown, missing or malformed tokens", async () => {
    const alice = await createTestUser();
    const bob = await createTestUser();
    const { secret: aliceSecret } = await enrolOtp(alice);
    await enrolOtp(bob);
    const bobStep = await firstStep(bob);
    expectError(await complete({ mfa_token: bobStep.mfa_token, method: "otp", code: totp(aliceSecret, 1) }), 401, "unauthorized");
    expectError(await complete({ mfa_token: "x".repeat(43), method: "otp", code: "123456" }), 401, "unauthorized");
    expectError(await complete({ method: "otp", code: "123456" }), 400, "invalid_request");
    expectError(await complete({ mfa_token: bobStep.mfa_token, method: "otp" }), 400, "invalid_request");
    expectError(await complete({ mfa_token: bobStep.mfa_token, method: "carrier-pigeon", code: "1" }), 400, "invalid_request");
    // A method the account does not have is a wrong answer, not a way around.
    expectError(await complete({ mfa_token: bobStep.mfa_token, method: "sms", code: "123456" }), 401, "unauthorized");
  });

  it("refuses an expired mfa_token", async () => {
    const user = await createTestUser();
    const { secret } = await enrolOtp(user);
    const { mfa_token } = await firstStep(user);
    const db = await getDb();
    const { mfaChallenges } = await import("@/db/schema");
    await db.update(mfaChallenges).set({ expiresAt: new Date(Date.now() - 1000) }).where(and(eq(mfaChallenges.tokenHash, hashToken(mfa_token))));
    const res = await complete({ mfa_token, method: "otp", code: totp(secret, 1) });
    expectError(res, 401, "unauthorized");
    expect(res.body.details.reason).toBe("mfa_token_expired");
  });
});

describe("recovery codes", () => {
  it("sign in once each, and a new set replaces the old one", async () => {
    const user = await createTestUser();
    const { secret, recoveryCodes } = await enrolOtp(user);
    const first = await complete({ mfa_token: (await firstStep(user)).mfa_token, method: "recovery", code: recoveryCodes[0].toUpperCase() });
    expect(first.status, first.text).toBe(200);
    expectError(await complete({ mfa_token: (await firstStep(user)).mfa_token, method: "recovery", code: recoveryCodes[0] }), 401, "unauthorized");
    expect((await call(mfaRoute.GET, { token: user.token })).body.recovery_codes_left).toBe(9);

    expectError(await call(recoveryRoute.POST, { method: "POST", token: user.token, body: { password: "wrong" }, headers: ip() }), 403, "forbidden");
    // A code of the app does not stand for the password of an account that has one (api.md, "Account security").
    expectError(await call(recoveryRoute.POST, { method: "POST", token: user.token, body: { code: totp(secret, 1) }, headers: ip() }), 400, "reauth_required");
    const renewed = await call(recoveryRoute.POST, { method: "POST", token: user.token, body: { password: PASSWORD }, headers: ip() });
    expect(renewed.status, renewed.text).toBe(200);
    expect(renewed.body.recovery_codes).toHaveLength(10);
    expectError(await complete({ mfa_token: (await firstStep(user)).mfa_token, method: "recovery", code: recoveryCodes[1] }), 401, "unauthorized");
    expect((await complete({ mfa_token: (await firstStep(user)).mfa_token, method: "recovery", code: renewed.body.recovery_codes[1] })).status).toBe(200);
  });

  it("need a factor first", async () => {
    const user = await createTestUser();
    expectError(await call(recoveryRoute.POST, { method: "POST", token: user.token, body: { password: PASSWORD } }), 409, "conflict");
  });
});

describe("removing the authenticator app", () => {
  it("needs the password (not a code, for an account that has one); then sign-in asks for no second step", async () => {
    const user = await createTestUser();
    const { secret } = await enrolOtp(user);
    expectError(await call(otpRoute.DELETE, { method: "DELETE", token: user.token, body: {} }), 400, "reauth_required");
    expectError(await call(otpRoute.DELETE, { method: "DELETE", token: user.token, body: { code: totp(secret, 1) }, headers: ip() }), 400, "reauth_required");
    const wrong = await call(otpRoute.DELETE, { method: "DELETE", token: user.token, body: { password: "nope" }, headers: ip() });
    expectError(wrong, 403, "forbidden");
    const removed = await call(otpRoute.DELETE, { method: "DELETE", token: user.token, body: { password: PASSWORD }, headers: ip() });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body).toMatchObject({ otp: false, recovery_codes_left: 0 });
    expect((await signIn(user)).status).toBe(200);
    expectError(await call(otpRoute.DELETE, { method: "DELETE", token: user.token, body: { password: PASSWORD } }), 404, "not_found");
  });
});
