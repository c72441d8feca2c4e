import "server-only";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { mfaRecoveryCodes, userMfa, type User } from "@/db/schema";
import type { MfaState } from "@/lib/contracts/mfa";
import { writeLog } from "../audit/write-log";
import { reauthMethod } from "../auth/reauthenticate";
import { getPlatformConfig } from "../config/platform-config";
import type { AuthedCtx } from "../context";
import { AppError, forbidden } from "../errors";
import { iso } from "../present/envelope";
import { allowedFactors, countRecoveryCodes, hasFactor, isMfaRequired, loadUserFactors, maskPhone } from "./factors";
import { replaceRecoveryCodes } from "./recovery-codes";
import { listCredentials } from "./webauthn";

/**
 * The person whose second factors an /account/mfa request changes: the signed-in person alone.
 * Acting as someone else (AsId) is refused: a factor is personal, and an administrator who
 * could add one to another account could sign in as it.
 */
export function mfaOwner(ctx: AuthedCtx): User {
  if (ctx.actor.user.id !== ctx.actor.realUser.id) throw forbidden("Second factors can only be managed by their owner, not through AsId");
  return ctx.actor.user;
}

/** Refuses a kind of factor the platform does not offer (the User's can_mfa_* flags). */
export async function assertFactorAllowed(db: DbOrTx, kind: "otp" | "sms" | "webauthn"): Promise<void> {
  if (!allowedFactors(await getPlatformConfig(db))[kind]) throw forbidden("This kind of second factor is not offered on this platform");
}

/** Creates the user's row if needed and applies `set`. */
export async function saveUserMfa(db: DbOrTx, userId: number, set: Partial<typeof userMfa.$inferInsert>): Promise<void> {
  await db
    .insert(userMfa)
    .values({ userId, ...set })
    .onConflictDoUpdate({ target: userMfa.userId, set: { ...set, updatedAt: sql`now()` } });
}

/** The first factor set up brings recovery codes (returned once); later ones keep the existing set. */
export async function recoveryCodesIfNone(db: DbOrTx, userId: number): Promise<string[] | undefined> {
  const [left] = await db.select({ id: mfaRecoveryCodes.id }).from(mfaRecoveryCodes).where(and(eq(mfaRecoveryCodes.userId, userId), isNull(mfaRecoveryCodes.usedAt))).limit(1);
  return left ? undefined : replaceRecoveryCodes(db, userId);
}

/** After a removal: with no factor left, the recovery codes stand in for nothing and go. */
export async function dropRecoveryCodesIfNoFactor(db: DbOrTx, userId: number): Promise<void> {
  if (!hasFactor(await loadUserFactors(db, userId))) await db.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
}

/** A wrong code while setting a factor up is bad input, named like a validation failure (api.md). */
export const wrongEnrolmentCode = () => new AppError("invalid_request", "The code is wrong or expired", [{ path: "code", message: "The code is wrong or expired" }]);

export async function logMfaChange(ctx: AuthedCtx, user: User, message: string): Promise<void> {
  await writeLog(ctx.db, { actor: user, request: ctx.request }, { type: "ADMLLOG_UPDATE", message, objectType: "user", objectId: user.id, object: user.login });
}

/** GET /account/mfa and the answer of every change. */
export async function presentMfaState(db: DbOrTx, user: User): Promise<MfaState> {
  const [factors, keys, recoveryLeft, config, reauth] = await Promise.all([
    loadUserFactors(db, user.id),
    listCredentials(db, user.id),
    countRecoveryCodes(db, user.id),
    getPlatformConfig(db),
    reauthMethod(db, user),
  ]);
  const required = isMfaRequired(user, config);
  return {
    otp: factors.otp,
    sms: factors.sms,
    sms_phone: maskPhone(factors.smsPhone),
    webauthn: keys.map((k) => ({ id: k.id, name: k.name, creation: iso(k.createdAt)!, last_used: iso(k.lastUsedAt) })),
    recovery_codes_left: recoveryLeft,
    can: allowedFactors(config),
    required,
    enrollment_required: required && !hasFactor(factors),
    reauth,
  };
}
