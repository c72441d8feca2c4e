import { noContent } from "@/lib/contracts/common";
import { ulinkEmailParams, ulinkEmailResponse, updateUlinkEmailBody } from "@/lib/contracts/ulinks";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { appUrl } from "@/lib/server/mail/app-url";
import { deleteUlinkEmail } from "@/lib/server/ulinks/delete-ulink-email";
import { readUlinkEmail } from "@/lib/server/ulinks/read-ulink-email";
import { updateUlinkEmail } from "@/lib/server/ulinks/update-ulink-email";

export const runtime = "nodejs";

// GET /api/ulink/email/(ulinkEmailId): one of my drop links by email, with its recipients
export const GET = route({ params: ulinkEmailParams, response: ulinkEmailResponse }, ({ ctx, params, req }) => readUlinkEmail(ctx, params.ulinkEmailId, appUrl(req)));

// PUT /api/ulink/email/(ulinkEmailId): subject and message (not resent), receipt and expiration of every link
export const PUT = route({ params: ulinkEmailParams, body: updateUlinkEmailBody, response: ulinkEmailResponse }, ({ ctx, params, body, req }) => updateUlinkEmail(ctx, params.ulinkEmailId, body, appUrl(req)));

// DELETE /api/ulink/email/(ulinkEmailId): every recipient's link stops working
export const DELETE = route({ params: ulinkEmailParams, response: noContent }, ({ ctx, params }) => deleteUlinkEmail(ctx, params.ulinkEmailId));

export const { PATCH, POST } = otherMethods({ GET, PUT, DELETE });
