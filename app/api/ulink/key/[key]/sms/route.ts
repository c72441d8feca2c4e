import { noContent } from "@/lib/contracts/common";
import { ulinkKeyParams } from "@/lib/contracts/ulinks";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { sendUlinkCode } from "@/lib/server/ulinks/send-ulink-code";

export const runtime = "nodejs";

// POST /api/ulink/key/(key)/sms (no token): text the code to the link's phone (204)
export const POST = route({ auth: "link", link: { kind: "ulink", allowLocked: true }, params: ulinkKeyParams, response: noContent }, ({ ctx }) => sendUlinkCode(ctx, ctx.link));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
