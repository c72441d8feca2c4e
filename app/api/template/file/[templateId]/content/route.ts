import { notJson } from "@/lib/contracts/common";
import { templateContentQuery, templateParams } from "@/lib/contracts/templates";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { serveTemplateContent } from "@/lib/server/templates/serve-template-content";

export const runtime = "nodejs";

// GET /api/template/file/(templateId)/content (beyond api.md): the template's bytes, by session or ?token= from POST /token/template/(id)/(type)
export const GET = route({ auth: "optional", params: templateParams, query: templateContentQuery, response: notJson("application/octet-stream") }, ({ ctx, params, query }) => serveTemplateContent(ctx, params.templateId, query.token));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
