import { pagingQuery } from "@/lib/contracts/annotations";
import { elementParams, tagListResponse } from "@/lib/contracts/tags";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { listElementTags } from "@/lib/server/tags/list-element-tags";

export const runtime = "nodejs";

// GET /api/tags/(elementId)/(type): the tags on a file (any version id) or a folder that the caller sees
export const GET = route({ params: elementParams, query: pagingQuery, response: tagListResponse }, ({ ctx, params, query }) => listElementTags(ctx, params.type, params.elementId, query));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
