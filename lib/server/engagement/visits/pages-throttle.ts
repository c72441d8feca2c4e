import "server-only";
import type { DbOrTx } from "@/db";
import { throttleAddress } from "../../auth/throttle";
import { refuseOverLimit } from "../window-count";

/** Batches of page times one client may send to one link per minute (a reader sends about one). */
export const PAGE_BATCHES_PER_MINUTE = 60;

/**
 * Counts one batch of `POST …/visits/(id)/pages` per (link, client address) in a fixed one-minute
 * window. Past the allowance, a 429 with Retry-After until the window ends; what a refused batch
 * carried is not recorded.
 */
export async function countPagesBatch(db: DbOrTx, shareId: number, ip: string): Promise<void> {
  await refuseOverLimit(db, `engagement.pages:${shareId}|${throttleAddress(ip)}`, PAGE_BATCHES_PER_MINUTE, 60_000, "page reports");
}
