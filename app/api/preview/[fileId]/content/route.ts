import { notJson } from "@/lib/contracts/common";
import { previewContentQuery, previewParams } from "@/lib/contracts/previews";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { servePreviewContent } from "@/lib/server/previews/serve-preview-content";

export const runtime = "nodejs";

// GET /api/preview/(fileId)/content?token=: the bytes the preview page shows, inline, with ranges
export const GET = route({ auth: "none", params: previewParams, query: previewContentQuery, response: notJson("application/octet-stream") }, ({ ctx, params, query, req }) =>
  servePreviewContent(ctx, params.fileId, query.token, req),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
