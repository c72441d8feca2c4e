import "server-only";
import type { DbOrTx } from "@/db";
import type { User } from "@/db/schema";
import { displayName } from "../audit/write-log";
import { getPlatformConfig } from "../config/platform-config";
import { queueMail } from "../mail/queue-mail";
import { fill, mailTemplate, mailTranslator, renderMail } from "../mail/render-mail";

/** A link share sent by mail: the owner's subject and message, then the recipient's personal address. */
export const SHARE_EMAIL_MAIL = mailTemplate("shareEmail");

/** Queues one recipient's mail, in the owner's language, in the sending's transaction. */
export async function queueShareEmailMail(db: DbOrTx, owner: User, to: string, message: { object: string; content: string }, link: string) {
  const { platform_name } = await getPlatformConfig(db);
  const actor = displayName(owner);
  const fallback = fill(mailTranslator(owner.language)("mail.shareEmail.defaultSubject"), { actor });
  const mail = renderMail(SHARE_EMAIL_MAIL, { object: message.object || fallback, content: message.content, actor, platform: platform_name, link, recipient: to }, { language: owner.language });
  await queueMail(db, { to, ownerId: owner.id, subject: mail.subject, text: mail.text.trimStart(), html: mail.html });
}
