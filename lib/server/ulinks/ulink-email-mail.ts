import "server-only";
import type { DbOrTx } from "@/db";
import type { User, UlinkRow } from "@/db/schema";
import { displayName } from "../audit/write-log";
import { getPlatformConfig } from "../config/platform-config";
import { queueMail } from "../mail/queue-mail";
import { fill, renderMail, type MailTemplate } from "../mail/render-mail";
import { ulinkUrl } from "./present-ulinks";

/**
 * A drop link by email, as each recipient receives it: the owner's subject and message (when
 * given), then the recipient's own link. `{{object}}` falls back to a subject of ours.
 */
export const ULINK_EMAIL_MAIL: MailTemplate = {
  en: {
    subject: "{{object}}",
    text: "{{content}}\n\n{{actor}} invites you to drop files for them on {{platform}}.\n\nYour personal drop link:\n{{link}}\n{{expiry}}",
  },
  fr: {
    subject: "{{object}}",
    text: "{{content}}\n\n{{actor}} vous invite à lui déposer des fichiers sur {{platform}}.\n\nVotre lien de dépôt personnel :\n{{link}}\n{{expiry}}",
  },
};

const DEFAULT_SUBJECT = { en: "{{actor}} invites you to drop files", fr: "{{actor}} vous invite à déposer des fichiers" };

/** Queues the mail of one recipient, in the owner's language, in the creation's transaction. */
export async function queueUlinkEmailMail(db: DbOrTx, owner: User, link: UlinkRow, message: { object: string; content: string }, base: string) {
  const { platform_name } = await getPlatformConfig(db);
  const fr = owner.language === "fr";
  const actor = displayName(owner);
  const expiry = link.expirationDate ? (fr ? `\nCe lien expire le ${link.expirationDate.toISOString()}.\n` : `\nThis link expires on ${link.expirationDate.toISOString()}.\n`) : "";
  const mail = renderMail(
    ULINK_EMAIL_MAIL,
    {
      object: message.object || fill(fr ? DEFAULT_SUBJECT.fr : DEFAULT_SUBJECT.en, { actor }),
      content: message.content,
      actor,
      platform: platform_name,
      link: ulinkUrl(base, link.key),
      expiry,
      recipient: link.recipientEmail ?? "",
    },
    { language: owner.language },
  );
  await queueMail(db, { to: link.recipientEmail!, ownerId: owner.id, subject: mail.subject, text: mail.text.trimStart(), html: mail.html });
}
