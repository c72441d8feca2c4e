import "server-only";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { emails } from "@/db/schema";
import { getBlobStore } from "../blobs/stores";
import { resolveMailRoute, smtpFailure, transporterFor } from "./transport";

/**
 * Job "mail.send": delivers one outbox mail through SMTP and marks it EM_TE_SENDED.
 * Idempotent: a mail already sent (or no longer in the outbox) is left alone. Without SMTP the
 * mail stays EM_TE_TOSEND, readable, and is queued again when SMTP gets configured. A failure
 * is recorded on the mail and rethrown so the queue retries with backoff.
 */
export async function sendMailJob(db: Db, payload: Record<string, unknown>): Promise<void> {
  const emailId = Number(payload.emailId);
  if (!Number.isInteger(emailId) || emailId <= 0) return;
  const [mail] = await db.select().from(emails).where(eq(emails.id, emailId)).limit(1);
  if (!mail || mail.type !== "EM_TE_TOSEND" || !mail.to) return;

  const mailRoute = await resolveMailRoute(db);
  if (!mailRoute) return;

  try {
    await transporterFor(mailRoute.options).sendMail({
      from: mailRoute.from,
      // A mail written on someone's behalf answers to them, while the envelope stays ours (SPF).
      ...(mail.from && mail.from !== mailRoute.from ? { replyTo: mail.from } : {}),
      to: mail.to,
      ...(mail.bcc ? { bcc: mail.bcc } : {}),
      subject: mail.object,
      text: mail.content,
      ...(mail.html ? { html: mail.html } : {}),
      ...(mail.attachments?.length ? { attachments: await Promise.all(mail.attachments.map(readAttachment)) } : {}),
    });
  } catch (error) {
    await db
      .update(emails)
      .set({ attempts: sql`${emails.attempts} + 1`, lastError: smtpFailure(error).response.slice(0, 2000) })
      .where(eq(emails.id, emailId));
    throw error;
  }
  await db
    .update(emails)
    .set({ type: "EM_TE_SENDED", lastSend: new Date(), from: mailRoute.from, lastError: null })
    .where(and(eq(emails.id, emailId), eq(emails.type, "EM_TE_TOSEND")));
}

/** An attachment as a stream from the blob store (a blob gone fails the attempt, and the queue retries). */
async function readAttachment(a: { filename: string; blob_id: string; content_type: string }) {
  return { filename: a.filename, content: await getBlobStore().read(a.blob_id), contentType: a.content_type };
}
