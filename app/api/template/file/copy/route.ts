import { fileResponse } from "@/lib/contracts/files";
import { copyTemplateBody, copyTemplateQuery } from "@/lib/contracts/templates";
import { otherMethods } from "@/lib/server/http/methods";
import { modeOf } from "@/lib/server/present/mode";
import { created, route } from "@/lib/server/http/route";
import { copyTemplate } from "@/lib/server/templates/copy-template";

export const runtime = "nodejs";

// POST /api/template/file/copy: a new file from a template {template_id, parent_id, name} (201 File; the blob is shared)
export const POST = route({ query: copyTemplateQuery, body: copyTemplateBody, response: { 201: fileResponse } }, async ({ ctx, query, body }) => created(await copyTemplate(ctx, body, modeOf(query))));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
