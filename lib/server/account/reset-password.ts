import "server-only";
import { and, eq, gt, isNull } from "drizzle-orm";
import { passwordResets, users } from "@/db/schema";
import { writeLog } from "../audit/write-log";
import { accountRefusal } from "../auth/account-state";
import { assertStrongPassword, hashPassword } from "../auth/passwords";
import { hashToken } from "../auth/tokens";
import { getPlatformConfig } from "../config/platform-config";
import type { Ctx } from "../context";
import { AppError, forbidden } from "../errors";
import { endAccessAfterPasswordChange } from "./end-access-after-password-change";

const GONE = "This password reset link is unknown, already used or expired; ask for a new one";

/**
 * POST /reset_password/(token) (no token needed): sets the new password once per link, then
 * ends every session and OAuth2 grant of the account and every other pending link.
 */
export async function resetPassword(ctx: Ctx, token: string, password: string): Promise<void> {
  const tokenHash = hashToken(token);
  const [found] = await ctx.db
    .select({ user: users })
    .from(passwordResets)
    .innerJoin(users, eq(users.id, passwordResets.userId))
    .where(and(eq(passwordResets.tokenHash, tokenHash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, new Date()), isNull(users.deletedAt)))
    .limit(1);
  if (!found) throw new AppError("not_found", GONE);
  const { user } = found;
  if (user.ldap) throw forbidden("Unavailable for external-directory accounts: change the password in the directory");
  const refusal = accountRefusal(user);
  if (refusal) throw forbidden(refusal);
  const config = await getPlatformConfig(ctx.db);
  assertStrongPassword(password, config.password_min_length);
  const passwordHash = await hashPassword(password);

  await ctx.db.transaction(async (tx) => {
    const now = new Date();
    // Claiming the link in the transaction makes a double submit use it once.
    const [claimed] = await tx
      .update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.tokenHash, tokenHash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now)))
      .returning({ userId: passwordResets.userId });
    if (!claimed) throw new AppError("not_found", GONE);
    await tx.update(passwordResets).set({ usedAt: now }).where(and(eq(passwordResets.userId, user.id), isNull(passwordResets.usedAt)));
    await tx.update(users).set({ passwordHash }).where(eq(users.id, user.id));
    await endAccessAfterPasswordChange(tx, user, { by: "link", keepSessionId: null });
    await writeLog(tx, { actor: user, request: ctx.request }, { type: "ADMLLOG_PASSWORD", message: "Password reset through an emailed link; all sessions and OAuth2 grants ended", objectType: "user", objectId: user.id, object: user.login });
  });
}
