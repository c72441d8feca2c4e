import { noContent } from "@/lib/contracts/common";
import { ulinkParams, ulinkResponse, updateUlinkBody } from "@/lib/contracts/ulinks";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { appUrl } from "@/lib/server/mail/app-url";
import { deleteUlink } from "@/lib/server/ulinks/delete-ulink";
import { readUlink } from "@/lib/server/ulinks/read-ulink";
import { updateUlink } from "@/lib/server/ulinks/update-ulink";

export const runtime = "nodejs";

// GET /api/ulink/(ulinkId): one of my drop links
export const GET = route({ params: ulinkParams, response: ulinkResponse }, ({ ctx, params, req }) => readUlink(ctx, params.ulinkId, appUrl(req)));

// PUT /api/ulink/(ulinkId): change folder, expiration, name, password, phone, receipt (partial)
export const PUT = route({ params: ulinkParams, body: updateUlinkBody, response: ulinkResponse }, ({ ctx, params, body, req }) => updateUlink(ctx, params.ulinkId, body, appUrl(req)));

// DELETE /api/ulink/(ulinkId): the key stops working; deposits stay
export const DELETE = route({ params: ulinkParams, response: noContent }, ({ ctx, params }) => deleteUlink(ctx, params.ulinkId));

export const { PATCH, POST } = otherMethods({ GET, PUT, DELETE });
