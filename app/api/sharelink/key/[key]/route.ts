import { sharelinkKeyParams, sharelinkResponse } from "@/lib/contracts/sharelinks";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { appUrl } from "@/lib/server/mail/app-url";
import { viewSharelink } from "@/lib/server/sharelinks/view-sharelink";

export const runtime = "nodejs";

// GET /api/sharelink/key/(key) (obsolete, no token): the link as a visitor sees it, legacy form
export const GET = route({ auth: "link", link: { kind: "share", allowLocked: true }, params: sharelinkKeyParams, response: sharelinkResponse }, ({ ctx, req }) => viewSharelink(ctx, ctx.link, appUrl(req)));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
