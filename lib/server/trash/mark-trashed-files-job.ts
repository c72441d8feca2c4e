import type { Db } from "@/db";
import { enqueueJob } from "../jobs/enqueue";
import { MARK_BATCH, markTrashedFiles } from "./send-to-trash";

/** A run stops after this long and queues its continuation, so one job never holds the worker. */
const RUN_MS = 20_000;

/**
 * Job "trash.mark" {trashId}: marks the remaining live files of a trashed folder tree, MARK_BATCH
 * per transaction (each well under a second), then queues itself again if time ran out. A restore
 * or purge of the item meanwhile leaves nothing for it to mark: it stops.
 */
export async function markTrashedFilesJob(db: Db, payload: Record<string, unknown>): Promise<void> {
  const trashId = Number(payload.trashId);
  const started = Date.now();
  while (Date.now() - started < RUN_MS) {
    const marked = await db.transaction((tx) => markTrashedFiles(tx, trashId, new Date()));
    if (marked < MARK_BATCH) return;
  }
  await enqueueJob(db, "trash.mark", { trashId }, { dedupeKey: `trash.mark:${trashId}` });
}
