import { redirect } from "@/lib/contracts/common";
import { sharelinkKeyParams } from "@/lib/contracts/sharelinks";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { appUrl } from "@/lib/server/mail/app-url";
import { downloadSharelink } from "@/lib/server/sharelinks/download-sharelink";

export const runtime = "nodejs";

// GET /api/sharelink/download/(key) (obsolete, no token): 302 to the file's token download, or to the share's zip
export const GET = route({ auth: "link", link: { kind: "share" }, params: sharelinkKeyParams, response: redirect }, ({ ctx, req }) => downloadSharelink(ctx, ctx.link, appUrl(req)));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
