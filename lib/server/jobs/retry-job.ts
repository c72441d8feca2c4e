import "server-only";
import { eq } from "drizzle-orm";
import { jobs } from "@/db/schema";
import type { JobResponse } from "@/lib/contracts/jobs";
import { writeLog } from "../audit/write-log";
import { type AuthedCtx, isAdmin } from "../context";
import { AppError, forbidden, notFound } from "../errors";
import { presentJob } from "./present-job";

/**
 * POST /admin/job/(id)/retry: a failed job is queued again with fresh attempts; a pending one
 * (waiting for its backoff) runs at once. A running or done job is a 409. Retrying a failed job
 * whose dedupe key already has a pending twin is a 409 too (the unique index says so).
 */
export async function retryJob(ctx: AuthedCtx, jobId: number): Promise<JobResponse> {
  if (!isAdmin(ctx.actor.user)) throw forbidden("Administrators only");
  return ctx.db.transaction(async (tx) => {
    const [job] = await tx.select().from(jobs).where(eq(jobs.id, jobId)).for("update").limit(1);
    if (!job) throw notFound("Job");
    if (job.status !== "failed" && job.status !== "pending") throw new AppError("conflict", `A ${job.status} job cannot be retried`);
    const [updated] = await tx
      .update(jobs)
      .set({ status: "pending", runAt: new Date(), ...(job.status === "failed" ? { attempts: 0, finishedAt: null } : {}) })
      .where(eq(jobs.id, jobId))
      .returning();
    await writeLog(tx, { actor: ctx.actor.user, request: ctx.request }, { type: "ADMLLOG_UPDATE", message: `Retried the ${job.kind} job #${job.id}`, objectType: "job", objectId: job.id, object: job.kind });
    return presentJob(updated);
  });
}
