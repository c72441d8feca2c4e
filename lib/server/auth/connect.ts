import "server-only";
import { eq } from "drizzle-orm";
import { sessions, users } from "@/db/schema";
import { displayName, writeLog } from "../audit/write-log";
import type { Ctx } from "../context";
import { AppError } from "../errors";
import { connectionRefusal, REFUSAL_MESSAGES } from "../options/connection-rules";
import { secondFactorGate } from "../mfa/second-factor-gate";
import { findUserOptions } from "../options/effective-options";
import { accountRefusal, refusalReason } from "./account-state";
import { assertNotThrottled, clearFailures, recordFailure } from "./throttle";
import { hashToken, newToken } from "./tokens";
import { verifyCredentials } from "./verify-credentials";

export type SessionKind = "api" | "web";

/**
 * POST /auth and the web sign-in: checks credentials (throttled; local password or directory
 * bind, verify-credentials.ts) and opens a session; returns its raw token.
 */
export async function connect(ctx: Ctx, input: { user: string; password: string; code?: string }, kind: SessionKind = "api") {
  const { db, request } = ctx;
  const scope = { namespace: "login", subject: input.user, ip: request.ip };
  await assertNotThrottled(db, scope);

  let check;
  try {
    check = await verifyCredentials(ctx, input);
  } catch (error) {
    // A directory that cannot be asked is a 503, not a failed guess: nothing is counted against the login.
    if (error instanceof AppError && error.code === "service_unavailable") {
      const cause = (error as { cause?: unknown }).cause;
      await writeLog(db, { actor: null, request }, {
        type: "ADMLLOG_LOGIN_FAILED",
        ok: false,
        message: `Sign-in for "${input.user}" impossible: ${error.message}${cause instanceof Error ? ` (${cause.message})` : ""}`,
        objectType: "user",
        object: input.user,
      });
    }
    throw error;
  }

  if (!check.ok) {
    const aimed = check.user;
    await recordFailure(db, scope);
    await writeLog(db, { actor: null, request }, {
      type: "ADMLLOG_LOGIN_FAILED",
      ok: false,
      message: `Failed sign-in for "${input.user}"${check.reason && aimed?.ldap ? ` (${check.reason})` : ""}`,
      objectType: "user",
      objectId: aimed?.id,
      object: input.user,
      user: aimed ? { id: aimed.id, name: displayName(aimed) } : undefined,
    });
    throw new AppError("unauthorized", "Wrong login or password");
  }
  const user = check.user;
  const refusal = accountRefusal(user);
  if (refusal) {
    await writeLog(db, { actor: user, request }, { type: "ADMLLOG_LOGIN_FAILED", ok: false, message: refusal, objectType: "user", objectId: user.id, object: user.login });
    throw new AppError("unauthorized", refusal, { reason: refusalReason(user) });
  }
  // Checked only once the password is right, so a refusal never confirms an account to a guesser.
  const refused = connectionRefusal((await findUserOptions(db, user.id)).options, { ip: request.ip, now: new Date(), kind });
  if (refused) {
    const message = REFUSAL_MESSAGES[refused];
    await writeLog(db, { actor: user, request }, { type: "ADMLLOG_LOGIN_FAILED", ok: false, message, objectType: "user", objectId: user.id, object: user.login });
    throw new AppError("forbidden", message, { reason: refused });
  }

  // Accounts with a second factor: a TOTP `code` beside the password, else 401 mfa_required (lib/server/mfa).
  await secondFactorGate(ctx, user, input);

  const token = newToken();
  await db.transaction(async (tx) => {
    await tx.insert(sessions).values({ tokenHash: hashToken(token), userId: user.id, kind, ip: request.ip, userAgent: request.userAgent });
    await tx.update(users).set({ lastLogin: new Date() }).where(eq(users.id, user.id));
    await writeLog(tx, { actor: user, request }, { type: "ADMLLOG_LOGIN", message: `Signed in (${kind})`, objectType: "user", objectId: user.id, object: user.login });
  });
  await clearFailures(db, scope);
  return { token, user };
}
