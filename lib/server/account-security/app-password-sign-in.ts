import "server-only";
import { eq } from "drizzle-orm";
import { sessions, users, type User } from "@/db/schema";
import { writeLog } from "../audit/write-log";
import type { Ctx } from "../context";
import { checkPasswordSignIn, type PasswordDoor } from "../auth/password-sign-in";
import { hashToken, newToken } from "../auth/tokens";
import { findAccountByLogin, type CredentialCheck } from "../auth/verify-credentials";
import { APP_PASSWORD_KIND, APP_PASSWORD_SCOPE, findAppPassword, touchAppPassword } from "./app-passwords";

/**
 * A login and an app password, checked in the order of every password door (password-sign-in.ts:
 * throttled in the same namespace as sign-ins, so guesses through WebDAV, POST /auth and the web
 * count together; a wrong one answers "Wrong login or password"; then the account's state and its
 * connection options). No second factor is asked: standing in for one is what an app password is.
 */
export async function checkAppPasswordSignIn(ctx: Ctx, input: { user: string; password: string }, door: PasswordDoor): Promise<{ user: User; appPasswordId: number }> {
  let appPasswordId = 0;
  const verify = async (): Promise<CredentialCheck> => {
    const user = await findAccountByLogin(ctx.db, input.user);
    const found = user ? await findAppPassword(ctx.db, user.id, input.password) : undefined;
    if (!user || !found) return { ok: false, user: user ?? null, reason: "Wrong app password" };
    appPasswordId = found.id;
    return { ok: true, user, via: "local" };
  };
  const user = await checkPasswordSignIn(ctx, input, door, verify);
  const [row] = await ctx.db.select({ lastUsedAt: sessions.lastUsedAt, createdAt: sessions.createdAt }).from(sessions).where(eq(sessions.id, appPasswordId)).limit(1);
  // Never used yet: its lastUsedAt is its creation, which must not hide the first use.
  await touchAppPassword(ctx.db, appPasswordId, ctx.request, row && row.lastUsedAt.getTime() !== row.createdAt.getTime() ? row.lastUsedAt : null);
  return { user, appPasswordId };
}

/** POST /auth with `app_password: 1`: a session with the `files` scopes only, ended with its app password. */
export async function connectWithAppPassword(ctx: Ctx, input: { user: string; password: string }) {
  const { user, appPasswordId } = await checkAppPasswordSignIn(ctx, input, { name: "api", kind: "api" });
  const token = newToken();
  await ctx.db.transaction(async (tx) => {
    await tx.insert(sessions).values({
      tokenHash: hashToken(token),
      userId: user.id,
      kind: APP_PASSWORD_KIND,
      parentId: appPasswordId,
      scope: APP_PASSWORD_SCOPE,
      ip: ctx.request.ip,
      userAgent: ctx.request.userAgent,
    });
    await tx.update(users).set({ lastLogin: new Date() }).where(eq(users.id, user.id));
    await writeLog(tx, { actor: user, request: ctx.request }, { type: "ADMLLOG_LOGIN", message: "Signed in (app password)", objectType: "user", objectId: user.id, object: user.login });
  });
  return { token, user };
}
