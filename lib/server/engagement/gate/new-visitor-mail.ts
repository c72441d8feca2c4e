import "server-only";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { users, type ShareRow } from "@/db/schema";
import { displayName } from "../../audit/write-log";
import { getPlatformConfig } from "../../config/platform-config";
import { queueMail } from "../../mail/queue-mail";
import { fill, mailTemplate, mailTranslator, renderMail } from "../../mail/render-mail";

/** Mailed to a link share's owner at each new visitor when its gate has `notify_view`. */
export const NEW_VISITOR_MAIL = mailTemplate("newVisitor");

/** The owner's analytics page of a link, where the new visitor is listed. */
export const linkAnalyticsUrl = (base: string, shareId: number) => `${base}/links/${shareId}/analytics`;

/** Queues the notice in the owner's language; an anonymous visitor is named by their address. */
export async function queueNewVisitorMail(db: DbOrTx, share: ShareRow, visitor: { email: string | null; ip: string }, base: string): Promise<void> {
  const [owner] = await db.select().from(users).where(eq(users.id, share.ownerId)).limit(1);
  if (!owner?.email.trim()) return;
  const { platform_name } = await getPlatformConfig(db);
  const mail = renderMail(
    NEW_VISITOR_MAIL,
    {
      recipient: displayName(owner),
      platform: platform_name,
      link_name: share.name ?? share.key,
      visitor: visitor.email ?? fill(mailTranslator(owner.language)("mail.newVisitor.anonymous"), { ip: visitor.ip }),
      date: new Date().toISOString(),
      link: linkAnalyticsUrl(base, share.id),
    },
    { language: owner.language },
  );
  await queueMail(db, { to: owner.email, ownerId: owner.id, subject: mail.subject, text: mail.text, html: mail.html });
}
