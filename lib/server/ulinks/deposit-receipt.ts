import "server-only";
import type { DbOrTx } from "@/db";
import type { User, UlinkRow } from "@/db/schema";
import { displayName } from "../audit/write-log";
import { getPlatformConfig } from "../config/platform-config";
import { queueMail } from "../mail/queue-mail";
import { fill, mailTemplate, mailTranslator, renderMail } from "../mail/render-mail";

/** Mailed to a drop link's owner after each complete deposit when the link has flag 4. */
export const DEPOSIT_RECEIPT_MAIL = mailTemplate("depositReceipt");

export type Deposit = { name: string; size: number; folderName: string; folderId: number; date: Date; depositorEmail?: string };

/** Queues the receipt in the deposit's transaction, in the owner's language. */
export async function queueDepositReceipt(db: DbOrTx, owner: User, link: UlinkRow, deposit: Deposit, base: string) {
  if (!owner.email.trim()) return;
  const { platform_name } = await getPlatformConfig(db);
  const mail = renderMail(
    DEPOSIT_RECEIPT_MAIL,
    {
      recipient: displayName(owner),
      platform: platform_name,
      link_name: link.name ?? link.key,
      file: deposit.name,
      size: formatSize(deposit.size),
      folder: deposit.folderName,
      date: deposit.date.toISOString(),
      depositor: depositorLine(owner, link.recipientEmail ?? deposit.depositorEmail),
      link: `${base}/files/${deposit.folderId}`,
    },
    { language: owner.language },
  );
  await queueMail(db, { to: owner.email, ownerId: owner.id, subject: mail.subject, text: mail.text, html: mail.html });
}

/** The address the link was sent to, else the one the visitor gave (issue 29). */
function depositorLine(owner: User, email: string | null | undefined): string {
  return email ? fill(mailTranslator(owner.language)("mail.depositReceipt.depositor"), { email }) : "";
}

function formatSize(bytes: number): string {
  const units = ["B", "KB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}
