import { z } from "zod";
import { id, paging, isoDate, listResponse } from "@/lib/contracts/common";

export const JOB_STATUSES = ["pending", "running", "failed", "done"] as const;
export const jobStatus = z.enum(JOB_STATUSES);

/** GET /admin/jobs: `status` a comma list (default the ones needing a look: pending,running,failed). */
export const listJobsQuery = z.object({
  status: z
    .string()
    .default("pending,running,failed")
    .transform((s) => s.split(",").map((x) => x.trim()).filter(Boolean))
    .pipe(z.array(jobStatus).min(1)),
  kind: z.string().trim().min(1).max(100).optional(),
  ...paging,
});
export type ListJobsQuery = z.output<typeof listJobsQuery>;

export const jobParams = z.object({ jobId: id });

/** A queued job as the console shows it; `last_error` is what the handler threw on its last attempt. */
export const jobResponse = z.object({
  id: z.number().int(),
  kind: z.string(),
  status: jobStatus,
  payload: z.record(z.string(), z.unknown()),
  attempts: z.number().int(),
  max_attempts: z.number().int(),
  last_error: z.string().nullable(),
  run_at: isoDate,
  created_at: isoDate,
  finished_at: isoDate.nullable(),
});
export type JobResponse = z.infer<typeof jobResponse>;
export const jobListResponse = listResponse(jobResponse);
