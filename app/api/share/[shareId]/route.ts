import { noContent } from "@/lib/contracts/common";
import { shareParams, shareResponse, updateShareBody } from "@/lib/contracts/shares";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { appUrl } from "@/lib/server/mail/app-url";
import { deleteShare } from "@/lib/server/shares/delete-share";
import { readShare } from "@/lib/server/shares/read-share";
import { updateShare } from "@/lib/server/shares/update-share";

export const runtime = "nodejs";

// GET /api/share/(id): a link share (owner or administrator)
export const GET = route({ params: shareParams, response: shareResponse }, ({ ctx, params, req }) => readShare(ctx, params.shareId, appUrl(req)));

// PUT /api/share/(id): change flags, expiration, name, password, phone or roots
export const PUT = route({ params: shareParams, body: updateShareBody, response: shareResponse }, ({ ctx, params, body, req }) => updateShare(ctx, params.shareId, body, appUrl(req)));

// DELETE /api/share/(id): the key stops working at once
export const DELETE = route({ params: shareParams, response: noContent }, ({ ctx, params }) => deleteShare(ctx, params.shareId));

export const { PATCH, POST } = otherMethods({ GET, PUT, DELETE });
