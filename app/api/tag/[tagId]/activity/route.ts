import { pagingQuery } from "@/lib/contracts/annotations";
import { tagActivityListResponse, tagParams } from "@/lib/contracts/tags";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { listTagActivity } from "@/lib/server/tags/list-tag-activity";

export const runtime = "nodejs";

// GET /api/tag/(tagId)/activity: the tag's activity, newest first (types 1 created, 2 renamed, 3 attached, 4 detached, 5 deleted)
export const GET = route({ params: tagParams, query: pagingQuery, response: tagActivityListResponse }, ({ ctx, params, query }) => listTagActivity(ctx, params.tagId, query));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
