import { sharePagesParams, sharePagesResponse } from "@/lib/contracts/engagement";
import { getSharePages } from "@/lib/server/engagement/share-pages";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// GET /api/share/key/(key)/file/(fileId)/pages (no token; access_token when protected): the pages the viewer shows
export const GET = route({ auth: "link", link: { kind: "share" }, params: sharePagesParams, response: sharePagesResponse }, ({ ctx, params }) => getSharePages(ctx, ctx.link, params.fileId));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
