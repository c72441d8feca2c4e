import "server-only";
import { eq } from "drizzle-orm";
import { jobs } from "@/db/schema";
import { writeLog } from "../audit/write-log";
import { type AuthedCtx, isAdmin } from "../context";
import { AppError, forbidden, notFound } from "../errors";

/**
 * DELETE /admin/job/(id): removes a failed or pending job from the queue. A running one is a 409:
 * a worker holds it, and its outcome would be written to a row that no longer exists.
 */
export async function discardJob(ctx: AuthedCtx, jobId: number): Promise<void> {
  if (!isAdmin(ctx.actor.user)) throw forbidden("Administrators only");
  await ctx.db.transaction(async (tx) => {
    const [job] = await tx.select().from(jobs).where(eq(jobs.id, jobId)).for("update").limit(1);
    if (!job) throw notFound("Job");
    if (job.status === "running") throw new AppError("conflict", "A running job cannot be discarded");
    await tx.delete(jobs).where(eq(jobs.id, jobId));
    await writeLog(tx, { actor: ctx.actor.user, request: ctx.request }, { type: "ADMLLOG_DELETE", message: `Discarded the ${job.status} ${job.kind} job #${job.id}`, objectType: "job", objectId: job.id, object: job.kind });
  });
}
