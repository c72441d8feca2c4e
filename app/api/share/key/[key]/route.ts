import { publicShareResponse, shareKeyParams } from "@/lib/contracts/shares";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { viewShare } from "@/lib/server/shares/view-share";

export const runtime = "nodejs";

// GET /api/share/key/(key) (no token): the share as its visitor sees it; content only once unlocked
export const GET = route({ auth: "link", link: { kind: "share", allowLocked: true }, params: shareKeyParams, response: publicShareResponse }, ({ ctx }) => viewShare(ctx, ctx.link));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
