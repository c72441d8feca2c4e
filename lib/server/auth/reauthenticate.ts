import "server-only";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { sessions, type User } from "@/db/schema";
import type { ReauthInput, ReauthMethod } from "@/lib/contracts/account";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { loadUserFactors } from "../mfa/factors";
import { checkOtp } from "../mfa/verify-code";
import { verifyPassword } from "./passwords";
import { guessUnderThrottle, type ThrottleScope } from "./throttle";

/** A sign-in this recent stands for a re-authentication where there is nothing to ask. */
export const FRESH_SIGN_IN_MS = 10 * 60_000;

/**
 * The one re-authentication (api.md, "Account security"; issue 25, finding 7): a session alone,
 * which may be stolen, never changes what protects the account. Every change of a second factor
 * (the first step of an addition, a removal, new recovery codes) and of the account's email, and
 * the password change's old password, ask the person at the keyboard (the real user, not the one
 * acted as through AsId) again:
 * - an account with a local password: `password` (a code of the app proves the phone, not the
 *   person, and api.md asks the password of these accounts);
 * - a directory or SSO account: a current `code` of its authenticator app;
 * - such an account without one has nothing to ask: a session opened in the last 10 minutes
 *   stands for it (its sign-in just went through the directory or the provider).
 * Missing: 400 `reauth_required` naming the method in `details.methods`; wrong: 403. Guesses are
 * throttled like sign-ins and per account from every address (whoever guesses holds a session).
 */
export async function reauthenticate(ctx: AuthedCtx, input: ReauthInput): Promise<void> {
  const person = ctx.actor.realUser;
  const method = await reauthMethod(ctx.db, person);
  if (method === "sign_in") {
    if (await signedInRecently(ctx)) return;
    throw reauthRequired(method, "Sign in again, then make this change within 10 minutes");
  }
  const answer = method === "password" ? input.password : input.code?.replace(/\s/g, "");
  if (!answer) throw reauthRequired(method, method === "password" ? "Confirm with your password (`password`)" : "Confirm with a current code of your authenticator app (`code`)");
  await checkAnswer(ctx, person, method, answer);
}

/** PUT /account's `old_password` (of the account whose password changes): the same throttled check. */
export async function confirmCurrentPassword(ctx: AuthedCtx, account: User, password: string): Promise<void> {
  await checkAnswer(ctx, account, "password", password);
}

/** What `user` re-authenticates with (GET /account/mfa tells the account page). */
export async function reauthMethod(db: DbOrTx, user: User): Promise<ReauthMethod> {
  if (!user.ldap && user.passwordHash !== null) return "password";
  return (await loadUserFactors(db, user.id)).otp ? "code" : "sign_in";
}

const reauthThrottle = (userId: number, ip: string): ThrottleScope => ({ namespace: "reauth", subject: String(userId), ip, perSubject: true });

async function checkAnswer(ctx: AuthedCtx, person: User, method: "password" | "code", answer: string): Promise<void> {
  const guess = () => (method === "password" ? verifyPassword(person.passwordHash, answer) : checkOtp(ctx.db, person.id, answer));
  const { right } = await guessUnderThrottle(ctx.db, reauthThrottle(person.id, ctx.request.ip), guess);
  if (!right) {
    throw new AppError("forbidden", method === "password" ? "The password is wrong" : "The code is wrong, expired or already used", { reason: "wrong_confirmation" });
  }
}

async function signedInRecently(ctx: AuthedCtx): Promise<boolean> {
  if (ctx.actor.sessionId === null) return false;
  const [session] = await ctx.db.select({ createdAt: sessions.createdAt, scope: sessions.scope }).from(sessions).where(eq(sessions.id, ctx.actor.sessionId)).limit(1);
  // An OAuth2 token is issued afresh at each refresh: its age says nothing of a sign-in.
  return Boolean(session && session.scope === null && Date.now() - session.createdAt.getTime() < FRESH_SIGN_IN_MS);
}

const reauthRequired = (method: ReauthMethod, message: string) => new AppError("reauth_required", message, { methods: [method] });
