import { noContent } from "@/lib/contracts/common";
import { annotationListResponse, pagingQuery } from "@/lib/contracts/annotations";
import { listRecentAnnotations } from "@/lib/server/annotations/list-recent-annotations";
import { markAllAnnotationsRead } from "@/lib/server/annotations/mark-all-read";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// GET /api/annotations/all: annotations of the last 7 days the caller may read (envelope)
export const GET = route({ query: pagingQuery, response: annotationListResponse }, ({ ctx, query }) => listRecentAnnotations(ctx, { offset: query.offset_start, limit: query.nb_objects }));

// PUT /api/annotations/all: mark every annotation read
export const PUT = route({ response: noContent }, ({ ctx }) => markAllAnnotationsRead(ctx));

export const { PATCH, POST, DELETE } = otherMethods({ GET, PUT });
