import { tokenResponse } from "@/lib/contracts/links";
import { shareKeyParams } from "@/lib/contracts/shares";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { createShareToken } from "@/lib/server/shares/share-tokens";

export const runtime = "nodejs";

// POST /api/token/sharelink/(key)/download (no token; access_token when protected): download token of the link's only file
export const POST = route({ auth: "link", link: { kind: "share" }, params: shareKeyParams, response: tokenResponse }, ({ ctx }) => createShareToken(ctx, ctx.link, { only: true }, "download"));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
