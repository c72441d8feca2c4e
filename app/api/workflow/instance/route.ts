import { createWorkflowBody, workflowInstanceResponse } from "@/lib/contracts/workflows";
import { otherMethods } from "@/lib/server/http/methods";
import { created, route } from "@/lib/server/http/route";
import { appUrl } from "@/lib/server/mail/app-url";
import { createWorkflowInstance } from "@/lib/server/workflows/create-workflow-instance";

export const runtime = "nodejs";

// POST /api/workflow/instance: a validation (flux 1, 4) or signature (flux 2, 3, 5) on files; validators are mailed their links
export const POST = route({ body: createWorkflowBody, response: { 201: workflowInstanceResponse } }, async ({ ctx, body, req }) => created(await createWorkflowInstance(ctx, body, appUrl(req))));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
