import { noContent } from "@/lib/contracts/common";
import { templateParams, templateResponse, updateTemplateBody } from "@/lib/contracts/templates";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { deleteTemplate } from "@/lib/server/templates/delete-template";
import { readTemplate } from "@/lib/server/templates/read-template";
import { updateTemplate } from "@/lib/server/templates/update-template";

export const runtime = "nodejs";

// GET /api/template/file/(templateId): a template the caller sees
export const GET = route({ params: templateParams, response: templateResponse }, ({ ctx, params }) => readTemplate(ctx, params.templateId));

// PUT /api/template/file/(templateId): name, description
export const PUT = route({ params: templateParams, body: updateTemplateBody, response: templateResponse }, ({ ctx, params, body }) => updateTemplate(ctx, params.templateId, body));

// DELETE /api/template/file/(templateId)
export const DELETE = route({ params: templateParams, response: noContent }, ({ ctx, params }) => deleteTemplate(ctx, params.templateId));

export const { PATCH, POST } = otherMethods({ GET, PUT, DELETE });
