import { publicUlinkResponse, ulinkKeyParams } from "@/lib/contracts/ulinks";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { readPublicUlink } from "@/lib/server/ulinks/read-public-ulink";

export const runtime = "nodejs";

// GET /api/ulink/key/(key) (no token): the drop page's facts, never the folder's content
export const GET = route({ auth: "link", link: { kind: "ulink", allowLocked: true }, params: ulinkKeyParams, response: publicUlinkResponse }, ({ ctx }) => readPublicUlink(ctx, ctx.link));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
