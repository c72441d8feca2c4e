import "server-only";
import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { jobs } from "@/db/schema";

/** How many times a job is tried before it is left failed, unless its kind says otherwise. */
export const DEFAULT_MAX_ATTEMPTS = 5;

export type JobOptions = { runAt?: Date; dedupeKey?: string; maxAttempts?: number };

/** Queues a job in the caller's transaction; a pending job with the same dedupeKey is kept instead. */
export async function enqueueJob(db: DbOrTx, kind: string, payload: Record<string, unknown>, options: JobOptions = {}) {
  await db
    .insert(jobs)
    .values({ kind, payload, runAt: options.runAt ?? new Date(), dedupeKey: options.dedupeKey, maxAttempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS })
    .onConflictDoNothing({ target: jobs.dedupeKey, where: sql`${jobs.status} = 'pending'` });
}
