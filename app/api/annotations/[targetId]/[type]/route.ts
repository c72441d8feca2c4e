import { annotationListResponse, pagingQuery, targetParams } from "@/lib/contracts/annotations";
import { listAnnotations } from "@/lib/server/annotations/list-annotations";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// GET /api/annotations/(targetId)/(type): a file's or folder's annotations (envelope); marks them read
export const GET = route({ params: targetParams, query: pagingQuery, response: annotationListResponse }, ({ ctx, params, query }) =>
  listAnnotations(ctx, params.type, params.targetId, { offset: query.offset_start, limit: query.nb_objects }),
);

export const { PUT, PATCH, POST, DELETE } = otherMethods({ GET });
