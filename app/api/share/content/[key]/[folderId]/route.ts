import { pagingQuery, shareContentListResponse, shareFolderParams } from "@/lib/contracts/shares";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { shareContent } from "@/lib/server/shares/share-content";

export const runtime = "nodejs";

// GET /api/share/content/(key)/(folderId) (no token; access_token when protected): a folder inside the share
export const GET = route({ auth: "link", link: { kind: "share" }, params: shareFolderParams, query: pagingQuery, response: shareContentListResponse }, ({ ctx, params, query }) =>
  shareContent(ctx, ctx.link, params.folderId, query),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
