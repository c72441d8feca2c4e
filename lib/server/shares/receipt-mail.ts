import "server-only";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { users, type ShareRow } from "@/db/schema";
import { displayName } from "../audit/write-log";
import { getPlatformConfig } from "../config/platform-config";
import { queueMail } from "../mail/queue-mail";
import { mailTemplate, renderMail } from "../mail/render-mail";
import { shareUrl } from "./present-share";

/** Mailed to a link share's owner at each complete download when the link has flag 64. */
export const DOWNLOAD_RECEIPT_MAIL = mailTemplate("downloadReceipt");

/** Queues the receipt in the owner's language; `what` is the file name, or the zip's for a whole share. */
export async function queueDownloadReceipt(db: DbOrTx, share: ShareRow, what: string, browser: string, base: string): Promise<void> {
  const [owner] = await db.select().from(users).where(eq(users.id, share.ownerId)).limit(1);
  if (!owner?.email.trim()) return;
  const { platform_name } = await getPlatformConfig(db);
  const mail = renderMail(
    DOWNLOAD_RECEIPT_MAIL,
    {
      recipient: displayName(owner),
      platform: platform_name,
      link_name: share.name ?? share.key,
      file: what,
      date: new Date().toISOString(),
      browser: browser || "-",
      link: shareUrl(base, share.key),
    },
    { language: owner.language },
  );
  await queueMail(db, { to: owner.email, ownerId: owner.id, subject: mail.subject, text: mail.text, html: mail.html });
}
