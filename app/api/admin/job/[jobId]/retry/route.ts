import { jobParams, jobResponse } from "@/lib/contracts/jobs";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { retryJob } from "@/lib/server/jobs/retry-job";

export const runtime = "nodejs";

// POST /api/admin/job/(jobId)/retry: queue a failed job again, or run a waiting one now (administrators)
export const POST = route({ auth: "admin", params: jobParams, response: jobResponse }, ({ ctx, params }) => retryJob(ctx, params.jobId));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
