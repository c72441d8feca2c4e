import "server-only";
import { sql } from "drizzle-orm";
import { rows, type DbOrTx } from "@/db";

/**
 * Queues a delivery for every outbox mail (EM_TE_TOSEND) that has none pending, for example
 * once SMTP gets configured: mails written meanwhile were kept, not lost. Returns how many.
 */
export async function requeueOutbox(db: DbOrTx): Promise<number> {
  const queued = rows<{ id: number }>(
    await db.execute(sql`
      INSERT INTO jobs (kind, payload, dedupe_key)
      SELECT 'mail.send', jsonb_build_object('emailId', e.id), 'mail.send:' || e.id
      FROM emails e
      WHERE e.type = 'EM_TE_TOSEND' AND NOT EXISTS (
        SELECT 1 FROM jobs j
        WHERE j.kind = 'mail.send' AND j.status IN ('pending', 'running') AND j.payload->>'emailId' = e.id::text)
      ON CONFLICT (dedupe_key) WHERE status = 'pending' DO NOTHING
      RETURNING id`),
  );
  return queued.length;
}
