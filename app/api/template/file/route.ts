import { createTemplateBody, templateResponse } from "@/lib/contracts/templates";
import { otherMethods } from "@/lib/server/http/methods";
import { created, route } from "@/lib/server/http/route";
import { createTemplate } from "@/lib/server/templates/create-template";

export const runtime = "nodejs";

// POST /api/template/file: make a file a template {file_id, name?, description?, parent_id? (0: platform-wide, administrators)}
export const POST = route({ body: createTemplateBody, response: { 201: templateResponse } }, async ({ ctx, body }) => created(await createTemplate(ctx, body)));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
