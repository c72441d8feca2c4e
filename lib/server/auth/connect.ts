import "server-only";
import { eq } from "drizzle-orm";
import { sessions, users } from "@/db/schema";
import { writeLog } from "../audit/write-log";
import type { Ctx } from "../context";
import { secondFactorGate } from "../mfa/second-factor-gate";
import { checkPasswordSignIn } from "./password-sign-in";
import { hashToken, newToken } from "./tokens";

export type SessionKind = "api" | "web";

/**
 * POST /auth and the web sign-in: checks the login and password in the order every password
 * door shares (password-sign-in.ts: throttle, password, then the account's state), then the
 * second factor, and opens a session; returns its raw token.
 */
export async function connect(ctx: Ctx, input: { user: string; password: string; code?: string }, kind: SessionKind = "api") {
  const { db, request } = ctx;
  const user = await checkPasswordSignIn(ctx, input, { name: kind, kind });

  // Accounts with a second factor: a TOTP `code` beside the password, else 401 mfa_required (lib/server/mfa).
  await secondFactorGate(ctx, user, input);

  const token = newToken();
  await db.transaction(async (tx) => {
    await tx.insert(sessions).values({ tokenHash: hashToken(token), userId: user.id, kind, ip: request.ip, userAgent: request.userAgent });
    await tx.update(users).set({ lastLogin: new Date() }).where(eq(users.id, user.id));
    await writeLog(tx, { actor: user, request }, { type: "ADMLLOG_LOGIN", message: `Signed in (${kind})`, objectType: "user", objectId: user.id, object: user.login });
  });
  return { token, user };
}
