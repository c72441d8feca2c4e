import { workflowIdParams, workflowInstanceResponse, workflowKeyParams } from "@/lib/contracts/workflows";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { appUrl } from "@/lib/server/mail/app-url";
import { cancelWorkflowInstance } from "@/lib/server/workflows/cancel-workflow-instance";
import { readWorkflowInstance } from "@/lib/server/workflows/read-workflow-instance";
import { callerFor } from "@/lib/server/workflows/workflow-caller";

export const runtime = "nodejs";

// GET /api/workflow/instance/(token): the instance as that validator sees it (no account); with an instance id, for signed-in callers
export const GET = route({ auth: "none", params: workflowKeyParams, response: workflowInstanceResponse }, async ({ ctx, params, req }) => readWorkflowInstance(await callerFor(ctx, req, params.key), params.key));

// DELETE /api/workflow/instance/(id): the initiator cancels it; its links die
export const DELETE = route({ params: workflowIdParams, response: workflowInstanceResponse }, ({ ctx, params, req }) => cancelWorkflowInstance(ctx, params.key, appUrl(req)));

export const { POST, PUT, PATCH } = otherMethods({ GET, DELETE });
