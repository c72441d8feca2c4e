import { listTagsQuery, tagListResponse } from "@/lib/contracts/tags";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { listTags } from "@/lib/server/tags/list-tags";

export const runtime = "nodejs";

// GET /api/tags: the tags the caller sees (public, and their own private ones); category_id, search, paging
export const GET = route({ query: listTagsQuery, response: tagListResponse }, ({ ctx, query }) => listTags(ctx, query));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
