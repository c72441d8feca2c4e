import "server-only";
import { and, eq, inArray, isNotNull, lte } from "drizzle-orm";
import type { Db } from "@/db";
import { signatureActors, signatureRequests } from "@/db/schema";
import { recordActivity } from "./record-activity";
import { remindActor } from "./remind-signature-actors";
import { settleParent } from "./settle-parent";
import { jobBaseUrl } from "./signature-mails";

const DAY = 86_400_000;

/** Ongoing requests past their expiration date become `expired` (links then answer 410 signing_expired). */
export async function expireSignatureRequests(db: Db, now = new Date()): Promise<number[]> {
  const due = await db
    .select()
    .from(signatureRequests)
    .where(and(eq(signatureRequests.status, "ongoing"), isNotNull(signatureRequests.expirationDate), lte(signatureRequests.expirationDate, now)));
  const expired: number[] = [];
  for (const request of due) {
    await db.transaction(async (tx) => {
      const [moved] = await tx
        .update(signatureRequests)
        .set({ status: "expired", updatedAt: now })
        .where(and(eq(signatureRequests.id, request.id), eq(signatureRequests.status, "ongoing")))
        .returning();
      if (!moved) return;
      await recordActivity(tx, { signatureId: moved.id, action: "signature_request.expired", details: { expiration_date: moved.expirationDate?.toISOString() } });
      await settleParent(tx, moved);
      expired.push(moved.id);
    });
  }
  return expired;
}

/**
 * Automatic reminders: every `reminder_settings.interval_in_days` (at most `max_occurences`
 * times) or every `reminder_day` days, each awaited actor is mailed their link again.
 */
export async function sendDueReminders(db: Db, now = new Date()): Promise<number[]> {
  const requests = await db.select().from(signatureRequests).where(eq(signatureRequests.status, "ongoing"));
  const reminded: number[] = [];
  for (const request of requests) {
    const interval = request.reminderInterval ?? request.reminderDay;
    if (!interval || interval <= 0) continue;
    const max = request.reminderInterval !== null ? request.reminderMax : null;
    const actors = await db
      .select()
      .from(signatureActors)
      .where(and(eq(signatureActors.signatureId, request.id), inArray(signatureActors.type, ["signer", "approver"]), inArray(signatureActors.status, ["notified", "opened"])));
    for (const actor of actors) {
      const since = actor.lastRemindedAt ?? actor.notifiedAt;
      if (!since || !actor.tokenNonce || now.getTime() - since.getTime() < interval * DAY) continue;
      if (max !== null && actor.remindersSent >= max) continue;
      await db.transaction((tx) => remindActor(tx, request, actor, jobBaseUrl(), null, null));
      reminded.push(actor.id);
    }
  }
  return reminded;
}

/** Job `signatures.tick` (hourly): expiry first, so an expired request is never reminded. */
export async function signaturesTickJob(db: Db): Promise<void> {
  await expireSignatureRequests(db);
  await sendDueReminders(db);
}
