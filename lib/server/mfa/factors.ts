import "server-only";
import { and, count, eq, inArray, isNull } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { mfaRecoveryCodes, mfaWebauthnCredentials, userMfa, type User } from "@/db/schema";
import type { MfaMethod } from "@/lib/contracts/mfa";
import type { PlatformConfig } from "../config/platform-config";

/** What a user has set up; recovery codes alone are no factor (they stand in for a lost one). */
export type Factors = { otp: boolean; sms: boolean; smsPhone: string | null; webauthn: number };

export const NO_FACTORS: Factors = { otp: false, sms: false, smsPhone: null, webauthn: 0 };

export const hasFactor = (f: Factors) => f.otp || f.sms || f.webauthn > 0;

/** The factors of several users in two queries (User serialisation, lists). */
export async function loadFactors(db: DbOrTx, userIds: number[]): Promise<Map<number, Factors>> {
  const result = new Map<number, Factors>(userIds.map((id) => [id, { ...NO_FACTORS }]));
  if (userIds.length === 0) return result;
  const [rows, keys] = await Promise.all([
    db.select({ userId: userMfa.userId, otpEnabledAt: userMfa.otpEnabledAt, smsEnabledAt: userMfa.smsEnabledAt, smsPhone: userMfa.smsPhone }).from(userMfa).where(inArray(userMfa.userId, userIds)),
    db.select({ userId: mfaWebauthnCredentials.userId, n: count() }).from(mfaWebauthnCredentials).where(inArray(mfaWebauthnCredentials.userId, userIds)).groupBy(mfaWebauthnCredentials.userId),
  ]);
  for (const r of rows) Object.assign(result.get(r.userId)!, factorsOf(r, 0));
  for (const k of keys) result.get(k.userId)!.webauthn = Number(k.n);
  return result;
}

/** Factors from a user's `user_mfa` columns (null: no row) and the number of their security keys. */
export function factorsOf(mfa: { otpEnabledAt: Date | string | null; smsEnabledAt: Date | string | null; smsPhone: string | null } | null, keys: number): Factors {
  return {
    otp: Boolean(mfa?.otpEnabledAt),
    sms: Boolean(mfa?.smsEnabledAt),
    smsPhone: mfa?.smsEnabledAt ? mfa.smsPhone : null,
    webauthn: keys,
  };
}

export async function loadUserFactors(db: DbOrTx, userId: number): Promise<Factors> {
  return (await loadFactors(db, [userId])).get(userId)!;
}

export async function countRecoveryCodes(db: DbOrTx, userId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(mfaRecoveryCodes).where(and(eq(mfaRecoveryCodes.userId, userId), isNull(mfaRecoveryCodes.usedAt)));
  return Number(row.n);
}

/** The ways a sign-in's second step may be answered, strongest first. */
export function signInMethods(f: Factors, recoveryLeft: number): MfaMethod[] {
  const methods: MfaMethod[] = [];
  if (f.webauthn > 0) methods.push("webauthn");
  if (f.otp) methods.push("otp");
  if (f.sms) methods.push("sms");
  if (recoveryLeft > 0 && hasFactor(f)) methods.push("recovery");
  return methods;
}

/**
 * What the platform lets people set up (the User's can_mfa_* flags). Switching a kind off stops
 * new enrolments; factors already set up keep working, so nobody loses their second step.
 */
export const allowedFactors = (config: PlatformConfig) => ({ otp: config.mfa_otp, sms: config.mfa_sms, webauthn: config.mfa_webauthn });

/** A second factor is demanded of this account, by an administrator or the platform. */
export const isMfaRequired = (user: Pick<User, "mfaRequired">, config: PlatformConfig) => user.mfaRequired || config.mfa_required;

/** "+33612345678" → "•••••••678": enough for a person to recognise their number. */
export const maskPhone = (phone: string | null) => (phone ? `${"•".repeat(Math.max(0, phone.length - 3))}${phone.slice(-3)}` : null);
