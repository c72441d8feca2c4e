import { notJson } from "@/lib/contracts/common";
import { sharePageParams, sharePageQuery } from "@/lib/contracts/engagement";
import { serveSharePage } from "@/lib/server/engagement/serve-share-page";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// GET /api/share/key/(key)/file/(fileId)/page/(page) (no token; access_token when protected): the page as an image, watermarked when the link says so
export const GET = route({ auth: "link", link: { kind: "share" }, params: sharePageParams, query: sharePageQuery, response: notJson("image/*") }, ({ ctx, params, query }) =>
  serveSharePage(ctx, ctx.link, params.fileId, params.page, query.w),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
