import "server-only";
import type { Db } from "@/db";
import { accountRefusal } from "../auth/account-state";
import { applyAsId, authenticateToken } from "../auth/authenticate";
import { assertScope } from "../auth/scopes";
import { assertNotThrottled, clearFailures, recordFailure } from "../auth/throttle";
import { verifyCredentials } from "../auth/verify-credentials";
import { writeLog } from "../audit/write-log";
import type { Actor, RequestInfo } from "../context";
import { AppError } from "../errors";
import { hasFactor, loadUserFactors } from "../mfa/factors";
import { assertSecondFactorEnrolled, mustEnrolSecondFactor } from "../mfa/enforce-enrolment";
import { connectionRefusal, REFUSAL_MESSAGES } from "../options/connection-rules";
import { findUserOptions } from "../options/effective-options";

/** Methods that change nothing: an OAuth2 token with `files.read` may use them. */
const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS", "PROPFIND"]);

/** 401 for WebDAV: clients (litmus, rclone, file managers) ask for Basic credentials on it. */
export const davUnauthorized = (message: string) => new AppError("unauthorized", message, undefined, { "WWW-Authenticate": 'Basic realm="Coffre", charset="UTF-8"' });

/**
 * The caller of a WebDAV request (api.md, "WebDAV and object storage"): `Authorization: Basic`
 * with login and password, checked and throttled as POST /auth checks them (same namespace, so
 * guesses through either count together), or `Authorization: Bearer` with an API session or an
 * OAuth2 token (area `files`). Web session cookies are not accepted here (no CSRF on WebDAV).
 * Basic opens no session; an account with a second factor must use a token.
 */
export async function authenticateDav(db: Db, header: string | undefined, method: string, request: RequestInfo, url: URL): Promise<Actor> {
  const bearer = header?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  if (bearer) {
    const session = await authenticateToken(db, bearer, request.ip).catch((error: unknown) => {
      if (error instanceof AppError && error.status === 401) throw davUnauthorized(error.message);
      throw error;
    });
    assertScope(session.scope, { area: "files", access: READ_METHODS.has(method) ? "read" : "readwrite" });
    await assertSecondFactorEnrolled(db, session, new Request(url, { method: "GET" }));
    return applyAsId(db, session, null);
  }
  const basic = header?.match(/^Basic\s+([A-Za-z0-9+/=]+)\s*$/i)?.[1];
  if (!basic) throw davUnauthorized("Authentication required: Basic (login and password) or Bearer");
  const decoded = Buffer.from(basic, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon <= 0) throw davUnauthorized("Malformed Basic credentials");
  const input = { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
  const ctx = { db, actor: null, request };
  const scope = { namespace: "login", subject: input.user, ip: request.ip };
  await assertNotThrottled(db, scope);
  const check = await verifyCredentials(ctx, input);
  if (!check.ok) {
    await recordFailure(db, scope);
    await writeLog(db, { actor: null, request }, {
      type: "ADMLLOG_LOGIN_FAILED",
      ok: false,
      message: `Failed WebDAV sign-in for "${input.user}"`,
      objectType: "user",
      objectId: check.user?.id,
      object: input.user,
    });
    throw davUnauthorized("Wrong login or password");
  }
  const user = check.user;
  const refusal = accountRefusal(user);
  if (refusal) throw davUnauthorized(refusal);
  const refused = connectionRefusal((await findUserOptions(db, user.id)).options, { ip: request.ip, now: new Date(), kind: "api" });
  if (refused) throw new AppError("forbidden", REFUSAL_MESSAGES[refused]);
  if (hasFactor(await loadUserFactors(db, user.id)) || (await mustEnrolSecondFactor(db, user))) {
    throw davUnauthorized("This account has a second factor: use Authorization: Bearer with an API or OAuth2 token");
  }
  await clearFailures(db, scope);
  return { user, realUser: user, sessionId: null };
}
