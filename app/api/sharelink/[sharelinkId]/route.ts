import { noContent } from "@/lib/contracts/common";
import { sharelinkParams, sharelinkResponse, updateSharelinkBody } from "@/lib/contracts/sharelinks";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { appUrl } from "@/lib/server/mail/app-url";
import { deleteShare } from "@/lib/server/shares/delete-share";
import { readSharelink } from "@/lib/server/sharelinks/read-sharelink";
import { updateSharelink } from "@/lib/server/sharelinks/update-sharelink";

export const runtime = "nodejs";

// GET /api/sharelink/(sharelinkId) (obsolete): one of my link shares, legacy form
export const GET = route({ params: sharelinkParams, response: sharelinkResponse }, ({ ctx, params, req }) => readSharelink(ctx, params.sharelinkId, appUrl(req)));

// PUT /api/sharelink/(sharelinkId) (obsolete): legacy options mapped onto the share
export const PUT = route({ params: sharelinkParams, body: updateSharelinkBody, response: sharelinkResponse }, ({ ctx, params, body, req }) => updateSharelink(ctx, params.sharelinkId, body, appUrl(req)));

// DELETE /api/sharelink/(sharelinkId) (obsolete): same as DELETE /share/(id)
export const DELETE = route({ params: sharelinkParams, response: noContent }, ({ ctx, params }) => deleteShare(ctx, params.sharelinkId));

export const { PATCH, POST } = otherMethods({ GET, PUT, DELETE });
