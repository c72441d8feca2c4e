import "server-only";
import type { CreateAppPasswordInput, CreatedAppPassword } from "@/lib/contracts/account-security";
import { sessions } from "@/db/schema";
import { writeLog } from "../audit/write-log";
import { reauthenticate } from "../auth/reauthenticate";
import { hashToken } from "../auth/tokens";
import type { AuthedCtx } from "../context";
import { APP_PASSWORD_KIND, APP_PASSWORD_SCOPE, generateAppPassword } from "./app-passwords";

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
    const [row] = await tx
      .insert(sessions)
      .values({ tokenHash: hashToken(password), userId: user.id, kind: APP_PASSWORD_KIND, name: input.name, scope: APP_PASSWORD_SCOPE, createdAt: now, lastUsedAt: now })
      .returning({ id: sessions.id });
    await writeLog(tx, { actor: ctx.actor.realUser, request: ctx.request }, { type: "ADMLLOG_INSERT", message: `App password "${input.name}" created`, objectType: "user", objectId: user.id, object: user.login });
    return row.id;
  });
  return { id, name: input.name, password };
}
