import { notJson } from "@/lib/contracts/common";
import { previewParams, previewQuery } from "@/lib/contracts/previews";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { renderPreviewPage } from "@/lib/server/previews/render-preview-page";

export const runtime = "nodejs";

// GET /api/preview/(fileId): an HTML page for an iframe showing the file (session or preview token)
export const GET = route({ auth: "optional", params: previewParams, query: previewQuery, response: notJson("text/html") }, ({ ctx, params, query }) =>
  renderPreviewPage(ctx, params.fileId, query.token),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
