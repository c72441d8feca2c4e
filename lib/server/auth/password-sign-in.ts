import "server-only";
import type { User } from "@/db/schema";
import { displayName, writeLog } from "../audit/write-log";
import type { Ctx } from "../context";
import { AppError } from "../errors";
import { REFUSAL_MESSAGES } from "../options/connection-rules";
import { findConnectionRefusal } from "../options/find-connection-refusal";
import { accountRefusal, refusalReason } from "./account-state";
import { assertNotThrottled, clearFailures, recordFailure } from "./throttle";
import { type CredentialCheck, verifyCredentials } from "./verify-credentials";

/** The doors a login and password come through; `kind` is what connection options are checked for. */
export type PasswordDoor = { name: "api" | "web" | "webdav"; kind: "api" | "web" };

export const WRONG_CREDENTIALS = "Wrong login or password";

/**
 * The one order of the checks of a password sign-in, on every door (POST /auth, the web
 * sign-in, WebDAV Basic):
 * 1. the throttle, keyed on the login's normalised form (login-name.ts), so spaces, case and
 *    Unicode forms share one allowance;
 * 2. the password (local hash, or a bind to the account's directory);
 * 3. a wrong password is counted and answered "Wrong login or password", the very answer of an
 *    unknown login, whatever the account's state: a guesser learns nothing about the account;
 * 4. only once the password is right, why the account may not sign in: deleted, inactive or
 *    expired (401 with `reason`), or refused by its connection options (403 with `reason`), logged.
 * The second factor comes after, in the caller (each door asks for it in its own way).
 */
export async function checkPasswordSignIn(
  ctx: Ctx,
  input: { user: string; password: string },
  door: PasswordDoor,
  // App passwords (account-security/app-password-sign-in.ts) pass their own check through the same order.
  verify: (ctx: Ctx, input: { user: string; password: string }) => Promise<CredentialCheck> = verifyCredentials,
): Promise<User> {
  const { db, request } = ctx;
  const scope = { namespace: "login", subject: input.user, ip: request.ip };
  await assertNotThrottled(db, scope);

  let check;
  try {
    check = await verify(ctx, input);
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
      message: `Failed ${door.name === "webdav" ? "WebDAV " : ""}sign-in for "${input.user}"${check.reason && aimed?.ldap ? ` (${check.reason})` : ""}`,
      objectType: "user",
      objectId: aimed?.id,
      object: input.user,
      user: aimed ? { id: aimed.id, name: displayName(aimed) } : undefined,
    });
    throw new AppError("unauthorized", WRONG_CREDENTIALS);
  }

  const user = check.user;
  const refusal = accountRefusal(user);
  if (refusal) {
    await writeLog(db, { actor: user, request }, { type: "ADMLLOG_LOGIN_FAILED", ok: false, message: `${refusal} (${door.name})`, objectType: "user", objectId: user.id, object: user.login });
    throw new AppError("unauthorized", refusal, { reason: refusalReason(user) });
  }
  const refused = await findConnectionRefusal(db, user.id, { ip: request.ip, kind: door.kind });
  if (refused) {
    const message = REFUSAL_MESSAGES[refused];
    await writeLog(db, { actor: user, request }, { type: "ADMLLOG_LOGIN_FAILED", ok: false, message: `${message} (${door.name})`, objectType: "user", objectId: user.id, object: user.login });
    throw new AppError("forbidden", message, { reason: refused });
  }
  await clearFailures(db, scope);
  return user;
}
