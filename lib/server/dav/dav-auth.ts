import "server-only";
import type { Db } from "@/db";
import { applyAsId, authenticateToken } from "../auth/authenticate";
import { checkAppPasswordSignIn } from "../account-security/app-password-sign-in";
import { isAppPasswordShaped } from "../account-security/app-passwords";
import { checkPasswordSignIn } from "../auth/password-sign-in";
import { assertScope } from "../auth/scopes";
import type { Actor, RequestInfo } from "../context";
import { AppError } from "../errors";
import { hasFactor, loadUserFactors } from "../mfa/factors";
import { assertSecondFactorEnrolled, mustEnrolSecondFactor } from "../mfa/enforce-enrolment";

/** Methods that change nothing: an OAuth2 token with `files.read` may use them. */
const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS", "PROPFIND"]);

/** 401 for WebDAV: clients (litmus, rclone, file managers) ask for Basic credentials on it. */
export const davUnauthorized = (message: string) => new AppError("unauthorized", message, undefined, { "WWW-Authenticate": 'Basic realm="Coffre", charset="UTF-8"' });

/**
 * The caller of a WebDAV request (api.md, "WebDAV and object storage"): `Authorization: Basic`
 * with login and password, checked and throttled as POST /auth checks them (same namespace, so
 * guesses through either count together), or `Authorization: Bearer` with an API session or an
 * OAuth2 token (area `files`). Web session cookies are not accepted here (no CSRF on WebDAV).
 * Basic opens no session; an account with a second factor uses an app password or a token.
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
  const door = { name: "webdav", kind: "api" } as const;
  // An app password (api.md, "Account security") stands for the second factor: it is how such accounts use WebDAV.
  if (isAppPasswordShaped(input.password)) {
    const { user } = await checkAppPasswordSignIn(ctx, input, door).catch(keepBasicChallenge);
    return { user, realUser: user, sessionId: null };
  }
  // The order every password door shares (password-sign-in.ts); a 401 keeps the Basic challenge.
  const user = await checkPasswordSignIn(ctx, input, door).catch(keepBasicChallenge);
  if (hasFactor(await loadUserFactors(db, user.id)) || (await mustEnrolSecondFactor(db, user))) {
    throw davUnauthorized("This account has a second factor: use an app password (account page) or Authorization: Bearer");
  }
  return { user, realUser: user, sessionId: null };
}

function keepBasicChallenge(error: unknown): never {
  if (error instanceof AppError && error.status === 401) throw new AppError(error.code, error.message, error.details, { ...error.headers, ...davUnauthorized(error.message).headers });
  throw error;
}
