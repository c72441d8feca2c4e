import { previewParams, thumbnailQuery, thumbnailStateResponse } from "@/lib/contracts/previews";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { resolveLinkVisitor } from "@/lib/server/links/resolve-link-visitor";
import { readThumbnail } from "@/lib/server/previews/read-thumbnail";

export const runtime = "nodejs";

// GET /api/mixer/(fileId): the thumbnail (waits up to 30 s, then 423); `state=1` gives {state}; `token` = thumb_token
// `key`: a link share's visitor (its key in the query, not the path), authenticated as under auth "link".
export const GET = route({ auth: "optional", params: previewParams, query: thumbnailQuery, response: thumbnailStateResponse }, async ({ ctx, params, query, req }) => {
  const visit = query.key ? await resolveLinkVisitor(ctx.db, req, query.key, { kind: "share" }) : null;
  return readThumbnail(ctx, params.fileId, query, visit, req.headers.get("if-none-match"));
});

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
