import { tokenResponse } from "@/lib/contracts/links";
import { dataTokenParams } from "@/lib/contracts/shares";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { createShareToken } from "@/lib/server/shares/share-tokens";

export const runtime = "nodejs";

// POST /api/token/sharelink/(key)/(dataId)/(type) (no token; access_token when protected): preview or video token of a shared file
// A video plays through a preview token: both only show the file, neither hands out a download.
export const POST = route({ auth: "link", link: { kind: "share" }, params: dataTokenParams, response: tokenResponse }, ({ ctx, params }) => createShareToken(ctx, ctx.link, { versionId: params.dataId }, "preview"));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
