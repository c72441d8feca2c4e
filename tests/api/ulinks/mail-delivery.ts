import { and, eq, inArray, sql } from "drizzle-orm";
import { getDb } from "@/db";
import { emails, jobs } from "@/db/schema";
import { enqueueJob } from "@/lib/server/jobs/enqueue";
import { runDueJobs } from "@/lib/server/jobs/worker";
import type { ReceivedMail, TestSmtpServer } from "../../helpers/smtp";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The outbox rows addressed to `to` (waiting or sent). */
export async function outboxFor(to: string) {
  const db = await getDb();
  return db.select().from(emails).where(and(eq(emails.to, to), inArray(emails.type, ["EM_TE_TOSEND", "EM_TE_SENDED"])));
}

/**
 * Runs the mail queue (with SMTP_URL pointing at `server`) until a mail to `to` that matches
 * arrives. Test files running in parallel may consume a job while SMTP is not set for them:
 * such a mail is queued again.
 */
export async function deliverTo(server: TestSmtpServer, to: string, match: (mail: ReceivedMail) => boolean = () => true): Promise<ReceivedMail> {
  const db = await getDb();
  const wanted = (m: ReceivedMail) => m.to.includes(to) && match(m);
  for (let i = 0; i < 400; i++) {
    const found = server.received.find(wanted);
    if (found) return found;
    for (const row of await outboxFor(to)) {
      if (row.type !== "EM_TE_TOSEND") continue;
      const live = await db
        .select({ id: jobs.id })
        .from(jobs)
        .where(and(eq(jobs.kind, "mail.send"), sql`${jobs.payload}->>'emailId' = ${String(row.id)}`, inArray(jobs.status, ["pending", "running"])));
      if (live.length === 0) await enqueueJob(db, "mail.send", { emailId: row.id });
    }
    if ((await runDueJobs(db, ["mail.send"])) === 0) await sleep(25);
  }
  throw new Error(`no mail to ${to} arrived`);
}
