import { desc, eq } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { expect } from "vitest";
import * as authRoute from "@/app/api/auth/route";
import * as otpRoute from "@/app/api/account/mfa/otp/route";
import * as smsRoute from "@/app/api/account/mfa/sms/route";
import * as webauthnRoute from "@/app/api/account/mfa/webauthn/route";
import * as webauthnOptionsRoute from "@/app/api/account/mfa/webauthn/options/route";
import { getDb } from "@/db";
import { platformConfig, smsMessages } from "@/db/schema";
import { forgetCachedConfig } from "@/lib/server/config/platform-config";
import { PASSWORD, type TestUser } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { SoftAuthenticator } from "./soft-authenticator";

/** Where route calls come from in these tests (helpers/http.ts); the relying party follows it. */
export const ORIGIN = "http://coffre.test";

/** A fresh client address per call site, so the throttle of one test never blocks another. */
export const ip = () => ({ "x-forwarded-for": `10.${20 + Math.floor(Math.random() * 200)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` });

/** Stores platform options and drops this process's cached copy. */
export async function setConfig(values: Record<string, unknown>) {
  const db = await getDb();
  for (const [key, value] of Object.entries(values)) {
    await db.insert(platformConfig).values({ key, value }).onConflictDoUpdate({ target: platformConfig.key, set: { value } });
  }
  forgetCachedConfig();
}

/** The TOTP code an authenticator app shows, `steps` periods from now. */
export const totp = (secret: string, steps = 0) =>
  new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + steps * 30_000 });

/** Sets up an authenticator app for `user` (the code of the current step); returns its secret and recovery codes. */
export async function enrolOtp(user: TestUser) {
  const start = await call(otpRoute.POST, { method: "POST", path: "/api/account/mfa/otp", token: user.token, body: { password: PASSWORD }, headers: ip() });
  expect(start.status, start.text).toBe(200);
  const enabled = await call(otpRoute.PUT, { method: "PUT", path: "/api/account/mfa/otp", token: user.token, body: { code: totp(start.body.secret) }, headers: ip() });
  expect(enabled.status, enabled.text).toBe(200);
  return { secret: start.body.secret as string, recoveryCodes: enabled.body.recovery_codes as string[] };
}

/** The 6-digit code of the newest text message sent to `phone` (the SMS outbox). */
export async function lastSmsCode(phone: string): Promise<string> {
  const db = await getDb();
  const [message] = await db.select().from(smsMessages).where(eq(smsMessages.to, phone)).orderBy(desc(smsMessages.id)).limit(1);
  const code = message?.body.match(/\b(\d{6})\b/)?.[1];
  expect(code, `no code sent to ${phone}`).toBeTruthy();
  return code!;
}

export const uniquePhone = () => `+3361${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;

/** Sets up SMS codes to a new number for `user` (the platform must offer SMS). */
export async function enrolSms(user: TestUser) {
  const phone = uniquePhone();
  const sent = await call(smsRoute.POST, { method: "POST", token: user.token, body: { phone, password: PASSWORD }, headers: ip() });
  expect(sent.status, sent.text).toBe(200);
  const enabled = await call(smsRoute.PUT, { method: "PUT", token: user.token, body: { code: await lastSmsCode(phone) }, headers: ip() });
  expect(enabled.status, enabled.text).toBe(200);
  return { phone, recoveryCodes: enabled.body.recovery_codes as string[] | undefined };
}

/** Registers a software security key for `user`. */
export async function enrolKey(user: TestUser, name = "Test key") {
  const key = new SoftAuthenticator(ORIGIN);
  const options = await call(webauthnOptionsRoute.POST, { method: "POST", token: user.token, body: { password: PASSWORD }, headers: ip() });
  expect(options.status, options.text).toBe(200);
  const created = await call(webauthnRoute.POST, { method: "POST", token: user.token, body: { name, response: key.register(options.body) } });
  expect(created.status, created.text).toBe(201);
  return { key, id: created.body.id as number, recoveryCodes: created.body.recovery_codes as string[] | undefined };
}

/** POST /auth with the password (and an optional code); the raw result. */
export const signIn = (user: TestUser, extra: Record<string, unknown> = {}, headers = ip()) =>
  call(authRoute.POST, { method: "POST", body: { user: user.login, password: PASSWORD, ...extra }, headers });

/** POST /auth expecting the 401 mfa_required; returns its details. */
export async function firstStep(user: TestUser, headers = ip()) {
  const res = await signIn(user, {}, headers);
  expect(res.status, res.text).toBe(401);
  expect(res.body.code).toBe("mfa_required");
  return res.body.details as { methods: string[]; mfa_token: string; phone?: string };
}
