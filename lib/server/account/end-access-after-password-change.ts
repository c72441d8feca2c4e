import "server-only";
import type { DbOrTx } from "@/db";
import type { User } from "@/db/schema";
import { displayName } from "../audit/write-log";
import { getPlatformConfig } from "../config/platform-config";
import { queueMail } from "../mail/queue-mail";
import { mailTemplate, mailTranslator, renderMail } from "../mail/render-mail";
import { liftMfaLock } from "../mfa/verify-code";
import { revokeUserSessions } from "../users/revoke-user-sessions";

export type PasswordChangedBy = "self" | "admin" | "link";

const ACCESS_ENDED_MAIL = mailTemplate("accessEnded");
const HOW = { self: "mail.accessEnded.bySelf", admin: "mail.accessEnded.byAdmin", link: "mail.accessEnded.byLink" } as const;

/**
 * What a new password ends, whoever set it: its owner from the account page, an administrator, or
 * a mailed reset link (issue 25, finding 8). Every session of the account goes, but for a change by
 * its owner the session they made it from (as Nextcloud and Google do: whoever just proved the old
 * password stays signed in), and every OAuth2 grant with its refresh and access tokens: an
 * application must be authorised again, or a refresh token would outlive the password it was given
 * under. The second step's lock is lifted (whoever tripped it held the old password). The owner is
 * mailed, unless `notify` is off (an administrator's alert mail with the new password went already).
 * Call it in the transaction that stores the new hash.
 */
export async function endAccessAfterPasswordChange(db: DbOrTx, user: User, options: { by: PasswordChangedBy; keepSessionId: number | null; notify?: boolean }) {
  await revokeUserSessions(db, user.id, options.by === "self" ? options.keepSessionId : null);
  await liftMfaLock(db, user.id);
  const to = user.email.split(",")[0]?.trim();
  if (options.notify === false || !to) return;
  const { platform_name } = await getPlatformConfig(db);
  const how = mailTranslator(user.language)(HOW[options.by]);
  const mail = renderMail(ACCESS_ENDED_MAIL, { recipient: displayName(user), platform: platform_name, login: user.login, how }, { language: user.language });
  await queueMail(db, { to, ownerId: user.id, subject: mail.subject, text: mail.text, html: mail.html });
}
