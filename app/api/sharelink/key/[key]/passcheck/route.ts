import { accessTokenResponse, passcheckBody } from "@/lib/contracts/links";
import { sharelinkKeyParams } from "@/lib/contracts/sharelinks";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { passcheckShare } from "@/lib/server/shares/passcheck-share";

export const runtime = "nodejs";

// POST /api/sharelink/key/(key)/passcheck (obsolete, no token): same as POST /share/key/(key)/passcheck
export const POST = route({ auth: "link", link: { kind: "share", allowLocked: true }, params: sharelinkKeyParams, body: passcheckBody, response: accessTokenResponse }, ({ ctx, body }) => passcheckShare(ctx, ctx.link, body));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
