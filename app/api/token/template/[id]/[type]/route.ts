import { tokenResponse } from "@/lib/contracts/links";
import { templateTokenParams } from "@/lib/contracts/shares";
import { templateTokenType } from "@/lib/contracts/templates";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { createTemplateToken } from "@/lib/server/templates/template-token";

export const runtime = "nodejs";

// POST /api/token/template/(id)/(type): a 15-minute token (preview or download) for a template's content
export const POST = route({ params: templateTokenParams, response: tokenResponse }, ({ ctx, params }) => createTemplateToken(ctx, params.id, templateTokenType.parse(params.type)));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
