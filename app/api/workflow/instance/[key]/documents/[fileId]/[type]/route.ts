import { workflowDocumentParams, workflowTokenResponse } from "@/lib/contracts/workflows";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { createWorkflowDocumentToken } from "@/lib/server/workflows/create-workflow-document-token";
import { callerFor } from "@/lib/server/workflows/workflow-caller";

export const runtime = "nodejs";

// POST /api/workflow/instance/(token)/documents/(fileId)/(type): a file token (preview or download) for one of the instance's documents
export const POST = route({ auth: "none", params: workflowDocumentParams, response: workflowTokenResponse }, async ({ ctx, params, req }) =>
  createWorkflowDocumentToken(await callerFor(ctx, req, params.key), params.key, params.fileId, params.type),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
