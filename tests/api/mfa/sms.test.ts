import { beforeAll, describe, expect, it } from "vitest";
import * as accountRoute from "@/app/api/account/route";
import * as mfaRoute from "@/app/api/account/mfa/route";
import * as smsRoute from "@/app/api/account/mfa/sms/route";
import * as completeRoute from "@/app/api/auth/mfa/route";
import * as sendRoute from "@/app/api/auth/mfa/sms/route";
import { createTestUser, PASSWORD } from "../../helpers/factories";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";
import { enrolOtp, enrolSms, firstStep, ip, lastSmsCode, setConfig, uniquePhone } from "./mfa-helpers";
import { forgetLastCode } from "./pace";

const complete = (body: Record<string, unknown>, headers = ip()) => call(completeRoute.POST, { method: "POST", body, headers });

// SMS codes go through the platform's SMS provider; the built-in outbox records them (read here).
beforeAll(() => setConfig({ mfa_sms: true }), 120_000);

describe("SMS codes set-up", () => {
  it("texts a code to the number, enables it with that code, and the User flags follow", async () => {
    const user = await createTestUser();
    const phone = uniquePhone();
    const sent = await call(smsRoute.POST, { method: "POST", token: user.token, body: { phone: ` ${phone.slice(0, 4)} ${phone.slice(4)} `, password: PASSWORD } });
    expect(sent.status, sent.text).toBe(200);
    expect(sent.body.phone).toMatch(/^•+\d{3}$/);
    expect(sent.body.phone.endsWith(phone.slice(-3))).toBe(true);
    const code = await lastSmsCode(phone);

    const wrong = await call(smsRoute.PUT, { method: "PUT", token: user.token, body: { code: code === "000000" ? "000001" : "000000" }, headers: ip() });
    expectError(wrong, 400, "invalid_request");
    // Another account cannot finish this person's set-up with the code.
    const other = await createTestUser();
    expectError(await call(smsRoute.PUT, { method: "PUT", token: other.token, body: { code } }), 409, "conflict");

    const enabled = await call(smsRoute.PUT, { method: "PUT", token: user.token, body: { code }, headers: ip() });
    expect(enabled.status, enabled.text).toBe(200);
    expect(enabled.body).toMatchObject({ sms: true, otp: false, recovery_codes_left: 10 });
    expect(enabled.body.sms_phone.endsWith(phone.slice(-3))).toBe(true);
    expect(enabled.body.recovery_codes).toHaveLength(10);
    // The code is spent.
    expectError(await call(smsRoute.PUT, { method: "PUT", token: user.token, body: { code } }), 409, "conflict");
    const account = (await call(accountRoute.GET, { token: user.token })).body;
    expect(account).toMatchObject({ has_mfa_sms: true, can_mfa_sms: true, has_mfa_otp: false });
  });

  it("paces messages to one a minute (429 with Retry-After) and refuses bad numbers", async () => {
    const user = await createTestUser();
    expect((await call(smsRoute.POST, { method: "POST", token: user.token, body: { phone: uniquePhone(), password: PASSWORD } })).status).toBe(200);
    const again = await call(smsRoute.POST, { method: "POST", token: user.token, body: { phone: uniquePhone(), password: PASSWORD } });
    expectError(again, 429, "too_many_requests");
    expect(Number(again.headers.get("retry-after"))).toBeGreaterThan(0);
    for (const phone of ["12", "not a phone", "+0123456789", `+33${"1".repeat(20)}`]) {
      expectError(await call(smsRoute.POST, { method: "POST", token: user.token, body: { phone } }), 400, "invalid_request");
    }
  });

  it("is refused when the platform does not offer SMS codes", async () => {
    const user = await createTestUser();
    await setConfig({ mfa_sms: false });
    try {
      expectError(await call(smsRoute.POST, { method: "POST", token: user.token, body: { phone: uniquePhone(), password: PASSWORD } }), 403, "forbidden");
      expect((await call(accountRoute.GET, { token: user.token })).body.can_mfa_sms).toBe(false);
      expect((await call(mfaRoute.GET, { token: user.token })).body.can).toEqual({ otp: true, sms: false, webauthn: true });
    } finally {
      await setConfig({ mfa_sms: true });
    }
  });

  it("needs a session", async () => {
    await expectAuthRequired(smsRoute.POST, { method: "POST", body: { phone: uniquePhone() } });
    await expectAuthRequired(smsRoute.PUT, { method: "PUT", body: { code: "123456" } });
    await expectAuthRequired(smsRoute.DELETE, { method: "DELETE", body: { password: "x" } });
  });
});

describe("signing in with an SMS code", () => {
  it("sends the code for the sign-in and accepts it once", async () => {
    const user = await createTestUser();
    const { phone } = await enrolSms(user);
    const step = await firstStep(user);
    expect(step.methods).toEqual(["sms", "recovery"]);
    expect(step.phone?.endsWith(phone.slice(-3))).toBe(true);

    // Paced: the set-up message was just sent.
    expectError(await call(sendRoute.POST, { method: "POST", body: { mfa_token: step.mfa_token } }), 429, "too_many_requests");
    await forgetLastCode(user.id);
    const sent = await call(sendRoute.POST, { method: "POST", body: { mfa_token: step.mfa_token } });
    expect(sent.status, sent.text).toBe(200);
    const code = await lastSmsCode(phone);

    expectError(await complete({ mfa_token: step.mfa_token, method: "sms", code: code === "999999" ? "999998" : "999999" }), 401, "unauthorized");
    const ok = await complete({ mfa_token: step.mfa_token, method: "sms", code });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.token).toMatch(/^[\w-]{40,}$/);
    // A code belongs to one sign-in: a new sign-in cannot reuse it.
    expectError(await complete({ mfa_token: (await firstStep(user)).mfa_token, method: "sms", code }), 401, "unauthorized");
  });

  it("refuses to text an account without SMS, and unknown tokens", async () => {
    const user = await createTestUser();
    await enrolOtp(user);
    expectError(await call(sendRoute.POST, { method: "POST", body: { mfa_token: (await firstStep(user)).mfa_token } }), 409, "conflict");
    expectError(await call(sendRoute.POST, { method: "POST", body: { mfa_token: "y".repeat(43) } }), 401, "unauthorized");
    expectError(await call(sendRoute.POST, { method: "POST", body: {} }), 400, "invalid_request");
  });

  it("removing the phone needs the password (or a TOTP code)", async () => {
    const user = await createTestUser();
    await enrolSms(user);
    await enrolOtp(user);
    expectError(await call(smsRoute.DELETE, { method: "DELETE", token: user.token, body: { password: "wrong" }, headers: ip() }), 403, "forbidden");
    const removed = await call(smsRoute.DELETE, { method: "DELETE", token: user.token, body: { password: PASSWORD }, headers: ip() });
    expect(removed.status, removed.text).toBe(200);
    // The authenticator app remains, so the recovery codes stay.
    expect(removed.body).toMatchObject({ sms: false, otp: true, recovery_codes_left: 10 });
    expect((await firstStep(user)).methods).toEqual(["otp", "recovery"]);
  });
});
