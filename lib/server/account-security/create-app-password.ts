import "server-only";
import { count } from "drizzle-orm";
import type { CreateAppPasswordInput, CreatedAppPassword } from "@/lib/contracts/account-security";
import { sessions } from "@/db/schema";
import { writeLog } from "../audit/write-log";
import { reauthenticate } from "../auth/reauthenticate";
import { hashToken } from "../auth/tokens";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { APP_PASSWORD_KIND, APP_PASSWORD_SCOPE, appPasswordRows, generateAppPassword } from "./app-passwords";

/** Enough for every device a person has; a bound so that a stolen session cannot fill the table. */
export const MAX_APP_PASSWORDS = 50;

/**
 * POST /account/app_passwords (api.md, "Account security"): a new app password, re-authenticated
 * (`password`, or a current `code` for directory and SSO accounts), answered once in clear.
 */
export async function createAppPassword(ctx: AuthedCtx, input: CreateAppPasswordInput): Promise<CreatedAppPassword> {
  await reauthenticate(ctx, input);
  const user = ctx.actor.user;
  const password = generateAppPassword();
  const now = new Date();
  const id = await ctx.db.transaction(async (tx) => {
    const [{ total }] = await tx.select({ total: count() }).from(sessions).where(appPasswordRows(user.id));
    if (total >= MAX_APP_PASSWORDS) throw new AppError("conflict", `An account holds at most ${MAX_APP_PASSWORDS} app passwords: revoke one first`, { reason: "too_many_app_passwords" });
    const [row] = await tx
      .insert(sessions)
      .values({ tokenHash: hashToken(password), userId: user.id, kind: APP_PASSWORD_KIND, name: input.name, scope: APP_PASSWORD_SCOPE, createdAt: now, lastUsedAt: now })
      .returning({ id: sessions.id });
    await writeLog(tx, { actor: ctx.actor.realUser, request: ctx.request }, { type: "ADMLLOG_INSERT", message: `App password "${input.name}" created`, objectType: "user", objectId: user.id, object: user.login });
    return row.id;
  });
  return { id, name: input.name, password };
}
