import { jobListResponse, listJobsQuery } from "@/lib/contracts/jobs";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { listJobs } from "@/lib/server/jobs/list-jobs";

export const runtime = "nodejs";

// GET /api/admin/jobs: the job queue by status (default pending, running, failed), newest first (administrators)
export const GET = route({ auth: "admin", query: listJobsQuery, response: jobListResponse }, ({ ctx, query }) => listJobs(ctx, query));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
