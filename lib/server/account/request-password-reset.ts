import "server-only";
import { and, isNull, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db";
import { passwordResets, users, type User } from "@/db/schema";
import { writeLog } from "../audit/write-log";
import { accountRefusal } from "../auth/account-state";
import { assertNotThrottled, recordFailure } from "../auth/throttle";
import { hashToken, newToken } from "../auth/tokens";
import { getPlatformConfig } from "../config/platform-config";
import type { Ctx } from "../context";
import { enqueueJob } from "../jobs/enqueue";
import { queueMail } from "../mail/queue-mail";
import { mailTemplate, renderMail } from "../mail/render-mail";

export const RESET_LINK_LIFETIME_MS = 60 * 60_000;

export const PASSWORD_RESET_MAIL = mailTemplate("passwordReset");

/**
 * POST /reset_password (no token): always a 204, whatever exists. The request only queues a job
 * (the same work for a known account, an unknown one or a refused one), so neither the answer
 * nor its timing tells whether a login or an address has an account. The job mails a one-use
 * link, valid one hour, to the account named by its login or its address; the link leads to the
 * page that calls POST /reset_password/(token).
 */
export async function requestPasswordReset(ctx: Ctx, loginOrEmail: string, appUrl: string): Promise<void> {
  const scope = { namespace: "reset", subject: loginOrEmail, ip: ctx.request.ip };
  await assertNotThrottled(ctx.db, scope);
  // Every request counts, found or not: each one may send a mail (mail bombing) or probe for accounts.
  await recordFailure(ctx.db, scope);
  await enqueueJob(ctx.db, PASSWORD_RESET_JOB, { loginOrEmail, appUrl, ip: ctx.request.ip, userAgent: ctx.request.userAgent });
}

export const PASSWORD_RESET_JOB = "account.password-reset";

/**
 * The job behind a reset request: mails the link when the request names exactly one live
 * account that may reset its password here; otherwise the refusal goes to the audit log of a
 * known account, and an unknown name leaves no trace but the throttle.
 */
export async function sendPasswordResetJob(db: Db, payload: Record<string, unknown>): Promise<void> {
  const { loginOrEmail, appUrl, ip, userAgent } = payload as { loginOrEmail: string; appUrl: string; ip: string; userAgent: string | null };
  const request = { ip, userAgent };
  const user = await findAccount(db, loginOrEmail);
  if (!user) return;
  const refusal = resetRefusal(user);
  if (refusal) {
    await writeLog(db, { actor: null, request }, { type: "ADMLLOG_PASSWORD", message: `Password reset refused: ${refusal}`, objectType: "user", objectId: user.id, object: user.login });
    return;
  }
  const { platform_name } = await getPlatformConfig(db);
  const token = newToken();
  const link = `${appUrl}/reset-password/${token}`;
  await db.transaction(async (tx) => {
    await tx.insert(passwordResets).values({ tokenHash: hashToken(token), userId: user.id, expiresAt: new Date(Date.now() + RESET_LINK_LIFETIME_MS) });
    const mail = renderMail(PASSWORD_RESET_MAIL, { platform: platform_name, login: user.login, link }, { language: user.language });
    // No owner, and sensitive: neither the account's outbox nor an administrator may read a link that bypasses the old password.
    await queueMail(tx, { to: user.email.trim(), ownerId: null, sensitive: true, subject: mail.subject, text: mail.text, html: mail.html });
    await writeLog(tx, { actor: null, request }, { type: "ADMLLOG_PASSWORD", message: "Password reset link requested", objectType: "user", objectId: user.id, object: user.login });
  });
}

function resetRefusal(user: User): string | null {
  if (user.ldap) return "the account belongs to an external directory";
  const refusal = accountRefusal(user);
  if (refusal) return refusal;
  if (!user.email.trim()) return "the account has no email address";
  return null;
}

/**
 * The live account with this login, else the one account with this address (of its
 * comma-separated list); null when none, or when several share the address (the contract: such an
 * address cannot be used).
 */
async function findAccount(db: Db, loginOrEmail: string): Promise<User | null> {
  const [byLogin] = await db
    .select()
    .from(users)
    .where(and(sql`lower(${users.login}) = lower(${loginOrEmail})`, isNull(users.deletedAt)))
    .limit(1);
  if (byLogin) return byLogin;
  const byEmail = await db
    .select()
    .from(users)
    .where(
      and(
        isNull(users.deletedAt),
        hasAddress(loginOrEmail),
      ),
    )
    .limit(2);
  return byEmail.length === 1 ? byEmail[0] : null;
}

/** A user's `email` holds a comma-separated list; true when `address` is one of them (any case). */
export const hasAddress = (address: string): SQL => sql`lower(${address}) IN (SELECT lower(trim(a)) FROM unnest(string_to_array(${users.email}, ',')) AS a)`;
