import "server-only";
import type { DbOrTx } from "@/db";
import type { User, UlinkRow } from "@/db/schema";
import { displayName } from "../audit/write-log";
import { getPlatformConfig } from "../config/platform-config";
import { queueMail } from "../mail/queue-mail";
import { fill, mailTemplate, mailTranslator, renderMail } from "../mail/render-mail";
import { ulinkUrl } from "./present-ulinks";

/**
 * A drop link by email, as each recipient receives it: the owner's subject and message (when
 * given), then the recipient's own link. `{{object}}` falls back to a subject of ours.
 */
export const ULINK_EMAIL_MAIL = mailTemplate("ulinkEmail");

/** Queues the mail of one recipient, in the owner's language, in the creation's transaction. */
export async function queueUlinkEmailMail(db: DbOrTx, owner: User, link: UlinkRow, message: { object: string; content: string }, base: string) {
  const { platform_name } = await getPlatformConfig(db);
  const t = mailTranslator(owner.language);
  const actor = displayName(owner);
  const expiry = link.expirationDate ? fill(t("mail.ulinkEmail.expiry"), { date: link.expirationDate.toISOString() }) : "";
  const mail = renderMail(
    ULINK_EMAIL_MAIL,
    {
      object: message.object || fill(t("mail.ulinkEmail.defaultSubject"), { actor }),
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
