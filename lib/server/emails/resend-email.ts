import "server-only";
import { eq, sql } from "drizzle-orm";
import { rows } from "@/db";
import { emails } from "@/db/schema";
import type { EmailResponse } from "@/lib/contracts/emails";
import { writeLog } from "../audit/write-log";
import { type AuthedCtx, isAdmin } from "../context";
import { AppError, forbidden, notFound } from "../errors";
import { enqueueJob } from "../jobs/enqueue";
import { presentEmail } from "./present-emails";

/**
 * POST /email/(id)/resend: delivers a waiting mail again at once, typically one whose "mail.send"
 * job failed after its last attempt (the SMTP server refused it: `last_error`). Its failed jobs are
 * superseded by the new one; a mail already sent is a 409. Administrators only: the outbox is theirs.
 */
export async function resendEmail(ctx: AuthedCtx, emailId: number): Promise<EmailResponse> {
  if (!isAdmin(ctx.actor.user)) throw forbidden("Administrators only");
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx.select().from(emails).where(eq(emails.id, emailId)).for("update").limit(1);
    if (!row) throw notFound("Email");
    if (row.type !== "EM_TE_TOSEND") throw new AppError("conflict", row.type === "EM_TE_SENDED" ? "This mail was already sent" : "Only a mail of the outbox can be sent");
    await tx.execute(sql`DELETE FROM jobs WHERE kind = 'mail.send' AND status = 'failed' AND payload->>'emailId' = ${String(emailId)}`);
    // A delivery still queued (waiting for its backoff) runs now; only without one is another
    // queued, so two workers never send the same mail.
    const waiting = rows(
      await tx.execute(sql`
        UPDATE jobs SET run_at = now() WHERE kind = 'mail.send' AND status IN ('pending', 'running') AND payload->>'emailId' = ${String(emailId)}
        RETURNING id`),
    );
    if (waiting.length === 0) await enqueueJob(tx, "mail.send", { emailId }, { dedupeKey: `mail.send:${emailId}` });
    const [updated] = await tx.update(emails).set({ attempts: 0 }).where(eq(emails.id, emailId)).returning();
    await writeLog(tx, { actor: ctx.actor.user, request: ctx.request }, { type: "ADMLLOG_UPDATE", message: `Queued the mail "${row.object}" to ${row.to ?? ""} again`, objectType: "email", objectId: row.id, object: row.object });
    return presentEmail(tx, updated);
  });
}
