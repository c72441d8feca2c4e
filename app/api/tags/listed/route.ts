import { listedTagsQuery, listedTagsResponse } from "@/lib/contracts/tags";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { listListedTags } from "@/lib/server/tags/list-listed-tags";

export const runtime = "nodejs";

// GET /api/tags/listed?files=1,2&folders=3 (beyond the contract): the tags of listed rows, for the file list's chips
export const GET = route({ query: listedTagsQuery, response: listedTagsResponse }, ({ ctx, query }) => listListedTags(ctx, query));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
