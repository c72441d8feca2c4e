import "server-only";
import type { jobs } from "@/db/schema";
import type { JobResponse } from "@/lib/contracts/jobs";

type JobRow = typeof jobs.$inferSelect;

export function presentJob(row: JobRow): JobResponse {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status as JobResponse["status"],
    payload: (row.payload ?? {}) as Record<string, unknown>,
    attempts: row.attempts,
    max_attempts: row.maxAttempts,
    last_error: row.lastError,
    run_at: row.runAt.toISOString(),
    created_at: row.createdAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
  };
}
