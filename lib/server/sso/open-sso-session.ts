import "server-only";
import { eq } from "drizzle-orm";
import { encode } from "next-auth/jwt";
import { sessions, users, type User } from "@/db/schema";
import { displayName, writeLog } from "../audit/write-log";
import { accountRefusal, refusalReason } from "../auth/account-state";
import { getAuthOptions } from "../auth/next-auth-options";
import { getAuthSecret } from "../auth/secret";
import { hashToken, newToken } from "../auth/tokens";
import type { Ctx } from "../context";
import { AppError } from "../errors";
import { secondFactorGate } from "../mfa/second-factor-gate";
import { REFUSAL_MESSAGES } from "../options/connection-rules";
import { findConnectionRefusal } from "../options/find-connection-refusal";
import { usesSecureCookies } from "./sso-http";
import type { SsoProvider } from "./sso-provider";

/**
 * Opens the web session of an SSO sign-in exactly as the web sign-in does (connect() through
 * next-auth's credentials provider): the same account and connection-option checks (kind `web`),
 * the same second-factor gate (an account with a second factor gets the 401 `mfa_required` and
 * finishes on the sign-in page), one row of the `sessions` table, `last_login`, the same log
 * entry; then the next-auth session cookie that carries the row's token (web-session.ts).
 */
export async function openSsoSession(ctx: Ctx, req: Request, user: User, provider: SsoProvider): Promise<{ token: string; cookie: string }> {
  const { db, request } = ctx;
  const refusal = accountRefusal(user);
  if (refusal) {
    await writeLog(db, { actor: user, request }, { type: "ADMLLOG_LOGIN_FAILED", ok: false, message: `${refusal} (${provider.name})`, objectType: "user", objectId: user.id, object: user.login });
    throw new AppError("unauthorized", refusal, { reason: refusalReason(user) });
  }
  const refused = await findConnectionRefusal(db, user.id, { ip: request.ip, kind: "web" });
  if (refused) {
    const message = REFUSAL_MESSAGES[refused];
    await writeLog(db, { actor: user, request }, { type: "ADMLLOG_LOGIN_FAILED", ok: false, message, objectType: "user", objectId: user.id, object: user.login });
    throw new AppError("forbidden", message, { reason: refused });
  }
  await secondFactorGate(ctx, user, {});

  const token = newToken();
  await db.transaction(async (tx) => {
    await tx.insert(sessions).values({ tokenHash: hashToken(token), userId: user.id, kind: "web", ip: request.ip, userAgent: request.userAgent });
    await tx.update(users).set({ lastLogin: new Date() }).where(eq(users.id, user.id));
    await writeLog(tx, { actor: user, request }, { type: "ADMLLOG_LOGIN", message: `Signed in (web) with ${provider.name} (${provider.type})`, objectType: "user", objectId: user.id, object: user.login });
  });
  return { token, cookie: await webSessionCookie(req, user, token) };
}

/**
 * The cookie next-auth would set after a credentials sign-in: its JWT (the claims next-auth puts
 * there, then our jwt callback adding the sessions row's token), encoded with its own encoder,
 * secret and lifetime, under the name and flags next-auth uses for this address.
 */
export async function webSessionCookie(req: Request, user: User, sessionToken: string): Promise<string> {
  const options = await getAuthOptions();
  const maxAge = options.session?.maxAge ?? 30 * 24 * 60 * 60;
  const signedIn = { id: String(user.id), name: displayName(user), email: null, image: null, sessionToken };
  const claims = { name: signedIn.name, email: null, picture: null, sub: signedIn.id };
  const token = options.callbacks?.jwt ? await options.callbacks.jwt({ token: claims, user: signedIn, account: null, trigger: "signIn" }) : { ...claims, sessionToken };
  const value = await encode({ token, secret: await getAuthSecret(), maxAge });
  const secure = await usesSecureCookies(req);
  const name = `${secure ? "__Secure-" : ""}next-auth.session-token`;
  const expires = new Date(Date.now() + maxAge * 1000).toUTCString();
  return `${name}=${value}; Path=/; Expires=${expires}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}
