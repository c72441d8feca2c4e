import { listWorkflowsQuery, workflowInstanceListResponse } from "@/lib/contracts/workflows";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { listWorkflowInstances } from "@/lib/server/workflows/list-workflow-instances";

export const runtime = "nodejs";

// GET /api/workflow/instances: my instances (envelope); ?role=validator those I am asked to validate
export const GET = route({ query: listWorkflowsQuery, response: workflowInstanceListResponse }, ({ ctx, query }) => listWorkflowInstances(ctx, query));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
