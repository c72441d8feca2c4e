import "server-only";
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { shareEmailRecipients, shareEmails } from "@/db/schema";

/**
 * The email-share recipient (`r`, the personal address a mail gave) a visit of this share came through, for share_accesses.recipient_id;
 * null for a key of another share (or none), so a key cannot be credited to the wrong statistics.
 */
export async function findVisitRecipient(db: DbOrTx, shareId: number, key: string | null): Promise<number | null> {
  if (!key || key.length > 200) return null;
  const [found] = await db
    .select({ id: shareEmailRecipients.id })
    .from(shareEmailRecipients)
    .innerJoin(shareEmails, eq(shareEmails.id, shareEmailRecipients.shareEmailId))
    .where(and(eq(shareEmailRecipients.key, key), eq(shareEmails.shareId, shareId)))
    .limit(1);
  return found?.id ?? null;
}
