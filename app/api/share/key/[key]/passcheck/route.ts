import { accessTokenResponse, passcheckBody } from "@/lib/contracts/links";
import { shareKeyParams } from "@/lib/contracts/shares";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { passcheckShare } from "@/lib/server/shares/passcheck-share";

export const runtime = "nodejs";

// POST /api/share/key/(key)/passcheck (no token): password or SMS code → {access_token} (2 hours)
export const POST = route({ auth: "link", link: { kind: "share", allowLocked: true }, params: shareKeyParams, body: passcheckBody, response: accessTokenResponse }, ({ ctx, body }) => passcheckShare(ctx, ctx.link, body));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
