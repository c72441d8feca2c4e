import { and, isNull, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db";
import { passwordResets, users, type User } from "@/db/schema";
import { writeLog } from "../audit/write-log";
import { accountRefusal } from "../auth/account-state";
import { assertNotThrottled, recordFailure } from "../auth/throttle";
import { hashToken, newToken } from "../auth/tokens";
import { getPlatformConfig } from "../config/platform-config";
import type { Ctx } from "../context";
import { AppError, forbidden } from "../errors";
import { queueMail } from "../mail/queue-mail";
import { renderMail, type MailTemplate } from "../mail/render-mail";

export const RESET_LINK_LIFETIME_MS = 60 * 60_000;

export const PASSWORD_RESET_MAIL: MailTemplate = {
  en: {
    subject: "Reset your {{platform}} password",
    text: 'Hello,\n\nSomeone (hopefully you) asked to reset the password of the {{platform}} account "{{login}}".\n\nChoose a new password here (the link works once, for one hour):\n{{link}}\n\nIf you did not ask for this, ignore this mail: your password stays as it is.\n',
  },
  fr: {
    subject: "Réinitialisez votre mot de passe {{platform}}",
    text: "Bonjour,\n\nQuelqu'un (vous, espérons-le) a demandé à réinitialiser le mot de passe du compte {{platform}} « {{login}} ».\n\nChoisissez un nouveau mot de passe ici (le lien ne sert qu'une fois, pendant une heure) :\n{{link}}\n\nSi vous n'êtes pas à l'origine de cette demande, ignorez ce message : votre mot de passe reste inchangé.\n",
  },
};

/**
 * POST /reset_password (no token): mails a one-use link, valid one hour, to the account named
 * by its login or its address. The link leads to the page that calls POST /reset_password/(token).
 */
export async function requestPasswordReset(ctx: Ctx, loginOrEmail: string, appUrl: string): Promise<void> {
  const scope = { namespace: "reset", subject: loginOrEmail, ip: ctx.request.ip };
  await assertNotThrottled(ctx.db, scope);
  // Every request counts, found or not: each one may send a mail (mail bombing) or probe for accounts.
  await recordFailure(ctx.db, scope);

  const user = await findAccount(ctx.db, loginOrEmail);
  if (user.ldap) throw forbidden("Unavailable for external-directory accounts: change the password in the directory");
  const refusal = accountRefusal(user);
  if (refusal) throw forbidden(refusal);
  const to = user.email.trim();
  if (!to) throw new AppError("conflict", "This account has no email address to send a reset link to; ask an administrator");

  const { platform_name } = await getPlatformConfig(ctx.db);
  const token = newToken();
  const link = `${appUrl}/reset-password/${token}`;
  await ctx.db.transaction(async (tx) => {
    await tx.insert(passwordResets).values({ tokenHash: hashToken(token), userId: user.id, expiresAt: new Date(Date.now() + RESET_LINK_LIFETIME_MS) });
    const mail = renderMail(PASSWORD_RESET_MAIL, { platform: platform_name, login: user.login, link }, { language: user.language });
    // No owner, and sensitive: neither the account's outbox nor an administrator may read a link that bypasses the old password.
    await queueMail(tx, { to, ownerId: null, sensitive: true, subject: mail.subject, text: mail.text, html: mail.html });
    await writeLog(tx, { actor: null, request: ctx.request }, { type: "ADMLLOG_PASSWORD", message: "Password reset link requested", objectType: "user", objectId: user.id, object: user.login });
  });
}

/** The live account with this login, else the one account with this address (of its comma-separated list). */
async function findAccount(db: Db, loginOrEmail: string): Promise<User> {
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
  if (byEmail.length === 0) throw new AppError("not_found", "No account has this login or email address");
  // The contract: an address shared by several accounts cannot be used.
  if (byEmail.length > 1) throw new AppError("conflict", "Several accounts share this email address: use your login instead");
  return byEmail[0];
}

/** A user's `email` holds a comma-separated list; true when `address` is one of them (any case). */
export const hasAddress = (address: string): SQL => sql`lower(${address}) IN (SELECT lower(trim(a)) FROM unnest(string_to_array(${users.email}, ',')) AS a)`;
