import { tokenResponse } from "@/lib/contracts/links";
import { guidTokenParams } from "@/lib/contracts/shares";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { createShareToken } from "@/lib/server/shares/share-tokens";

export const runtime = "nodejs";

// POST /api/token/share/(guid)/(type)/(key) (no token; access_token when protected): preview, edit or download token of a shared file
export const POST = route({ auth: "link", link: { kind: "share" }, params: guidTokenParams, response: tokenResponse }, ({ ctx, params }) => createShareToken(ctx, ctx.link, { guid: params.guid }, params.type));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
