import "server-only";
import { eq } from "drizzle-orm";
import type { User } from "@/db/schema";
import { sessions, users } from "@/db/schema";
import { writeLog } from "../audit/write-log";
import { refusalReason, accountRefusal } from "../auth/account-state";
import { clearFailures } from "../auth/throttle";
import { hashToken, newToken } from "../auth/tokens";
import type { Ctx } from "../context";
import { AppError } from "../errors";
import { REFUSAL_MESSAGES } from "../options/connection-rules";
import { findConnectionRefusal } from "../options/find-connection-refusal";

export type SessionKind = "api" | "web";

/**
 * Opens the session of a sign-in whose second step succeeded: the same row, log entry and checks
 * as connect() (lib/server/auth/connect.ts), taken again because minutes may have passed since
 * the password (the account disabled, the connection options changed).
 */
export async function openSecondStepSession(ctx: Ctx, user: User, kind: SessionKind, method: string): Promise<{ token: string; user: User }> {
  const { db, request } = ctx;
  const refusal = accountRefusal(user);
  if (refusal) throw new AppError("unauthorized", refusal, { reason: refusalReason(user) });
  const refused = await findConnectionRefusal(db, user.id, { ip: request.ip, kind });
  if (refused) throw new AppError("forbidden", REFUSAL_MESSAGES[refused], { reason: refused });

  const token = newToken();
  await db.transaction(async (tx) => {
    await tx.insert(sessions).values({ tokenHash: hashToken(token), userId: user.id, kind, ip: request.ip, userAgent: request.userAgent });
    await tx.update(users).set({ lastLogin: new Date() }).where(eq(users.id, user.id));
    await writeLog(tx, { actor: user, request }, { type: "ADMLLOG_LOGIN", message: `Signed in (${kind}) with a second factor (${method})`, objectType: "user", objectId: user.id, object: user.login });
  });
  await clearFailures(db, { namespace: "login", subject: user.login, ip: request.ip });
  return { token, user };
}
