import { noContent } from "@/lib/contracts/common";
import { jobParams } from "@/lib/contracts/jobs";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { discardJob } from "@/lib/server/jobs/discard-job";

export const runtime = "nodejs";

// DELETE /api/admin/job/(jobId): discard a failed or pending job (administrators)
export const DELETE = route({ auth: "admin", params: jobParams, response: noContent }, ({ ctx, params }) => discardJob(ctx, params.jobId));

export const { GET, POST, PUT, PATCH } = otherMethods({ DELETE });
