import "server-only";
import type { DbOrTx } from "@/db";
import { emails } from "@/db/schema";
import { enqueueJob } from "../jobs/enqueue";

export type OutgoingMail = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  ownerId?: number | null;
  /** The body carries a secret (a reset link, a password): GET /email never shows it. */
  sensitive?: boolean;
  /** Stored blobs sent with the mail (read when it is sent). */
  attachments?: MailAttachment[] | null;
};

export type MailAttachment = { filename: string; blob_id: string; content_type: string };

/** Every mail is first an outbox record (EM_TE_TOSEND); the mail job sends it when SMTP is set. */
export async function queueMail(db: DbOrTx, mail: OutgoingMail): Promise<number> {
  const [row] = await db
    .insert(emails)
    .values({ type: "EM_TE_TOSEND", object: mail.subject, content: mail.text, html: mail.html, to: mail.to, ownerId: mail.ownerId ?? null, sensitive: mail.sensitive ?? false, attachments: mail.attachments?.length ? mail.attachments : null })
    .returning({ id: emails.id });
  await enqueueJob(db, "mail.send", { emailId: row.id });
  return row.id;
}
