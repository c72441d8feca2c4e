import "server-only";
import type { DbOrTx } from "@/db";
import { throttleAddress } from "../../auth/throttle";
import { countInWindow, refuseOverLimit } from "../window-count";

/**
 * Visitors one address may enter into one link per hour. A reader enters once per tab and token
 * (2 hours); a whole office behind one address still fits. Past it, a 429: a script cannot fill
 * the link's visitors (nor, with `notify_view`, its owner's mailbox) with made-up readers.
 */
export const VISITORS_PER_HOUR = 120;
/** New-visitor mails one link sends its owner per hour; the visitors past it are still listed in the analytics. */
export const VISITOR_MAILS_PER_HOUR = 30;
const HOUR_MS = 3_600_000;

export async function countVisitorEntry(db: DbOrTx, shareId: number, ip: string): Promise<void> {
  await refuseOverLimit(db, `engagement.visitors:${shareId}|${throttleAddress(ip)}`, VISITORS_PER_HOUR, HOUR_MS, "visitors");
}

/** Whether the owner may be mailed about one more new visitor of this link this hour. */
export async function mayMailOwner(db: DbOrTx, shareId: number): Promise<boolean> {
  return (await countInWindow(db, `engagement.visitor-mails:${shareId}`, HOUR_MS)).count <= VISITOR_MAILS_PER_HOUR;
}
