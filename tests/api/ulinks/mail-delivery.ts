import { and, eq, inArray } from "drizzle-orm";
import { getDb } from "@/db";
import { emails } from "@/db/schema";

/** The outbox rows addressed to `to` (waiting or sent). */
export async function outboxFor(to: string) {
  const db = await getDb();
  return db.select().from(emails).where(and(eq(emails.to, to), inArray(emails.type, ["EM_TE_TOSEND", "EM_TE_SENDED"])));
}

export { deliverTo } from "../../helpers/smtp";
