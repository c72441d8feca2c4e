import { transitionBody, workflowInstanceResponse, workflowKeyParams } from "@/lib/contracts/workflows";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { appUrl } from "@/lib/server/mail/app-url";
import { transitionWorkflowInstance } from "@/lib/server/workflows/transition-workflow-instance";
import { callerFor } from "@/lib/server/workflows/workflow-caller";

export const runtime = "nodejs";

// POST /api/workflow/instance/(token)/transition: {state, comment?}, a state from transitions_available (else 409)
export const POST = route({ auth: "none", params: workflowKeyParams, body: transitionBody, response: workflowInstanceResponse }, async ({ ctx, params, body, req }) =>
  transitionWorkflowInstance(await callerFor(ctx, req, params.key), params.key, body, appUrl(req)),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
