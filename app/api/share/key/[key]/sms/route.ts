import { noContent } from "@/lib/contracts/common";
import { shareKeyParams } from "@/lib/contracts/shares";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { sendShareCode } from "@/lib/server/shares/passcheck-share";

export const runtime = "nodejs";

// POST /api/share/key/(key)/sms (no token): send the code to the share's phone (204)
export const POST = route({ auth: "link", link: { kind: "share", allowLocked: true }, params: shareKeyParams, response: noContent }, ({ ctx }) => sendShareCode(ctx, ctx.link));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
