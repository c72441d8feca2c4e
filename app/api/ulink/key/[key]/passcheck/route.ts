import { accessTokenResponse, passcheckBody } from "@/lib/contracts/links";
import { ulinkKeyParams } from "@/lib/contracts/ulinks";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { passcheckUlink } from "@/lib/server/ulinks/passcheck-ulink";

export const runtime = "nodejs";

// POST /api/ulink/key/(key)/passcheck (no token): password and/or SMS code → {access_token} (4 h)
export const POST = route({ auth: "link", link: { kind: "ulink", allowLocked: true }, params: ulinkKeyParams, body: passcheckBody, response: accessTokenResponse }, ({ ctx, body }) => passcheckUlink(ctx, ctx.link, body));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
