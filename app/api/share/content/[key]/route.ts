import { pagingQuery, shareContentListResponse, shareKeyParams } from "@/lib/contracts/shares";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { shareContent } from "@/lib/server/shares/share-content";

export const runtime = "nodejs";

// GET /api/share/content/(key) (no token; access_token when protected): the shared roots
export const GET = route({ auth: "link", link: { kind: "share" }, params: shareKeyParams, query: pagingQuery, response: shareContentListResponse }, ({ ctx, query }) => shareContent(ctx, ctx.link, null, query));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
