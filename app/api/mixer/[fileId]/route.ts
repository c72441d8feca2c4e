import { previewParams, thumbnailQuery } from "@/lib/contracts/previews";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { readThumbnail } from "@/lib/server/previews/read-thumbnail";

export const runtime = "nodejs";

// GET /api/mixer/(fileId): the thumbnail (waits up to 30 s, then 423); `state=1` gives {state}; `token` = thumb_token
export const GET = route({ auth: "optional", params: previewParams, query: thumbnailQuery }, ({ ctx, params, query, req }) =>
  readThumbnail(ctx, params.fileId, query, req),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
