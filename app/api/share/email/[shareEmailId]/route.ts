import { noContent } from "@/lib/contracts/common";
import { shareEmailParams, shareEmailResponse, updateShareEmailBody } from "@/lib/contracts/share-emails";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { appUrl } from "@/lib/server/mail/app-url";
import { deleteShareEmail } from "@/lib/server/share-emails/delete-share-email";
import { readShareEmail } from "@/lib/server/share-emails/read-share-email";
import { updateShareEmail } from "@/lib/server/share-emails/update-share-email";

export const runtime = "nodejs";

// GET /api/share/email/(shareEmailId): one of my email shares with per-recipient statistics
export const GET = route({ params: shareEmailParams, response: shareEmailResponse }, ({ ctx, params, req }) => readShareEmail(ctx, params.shareEmailId, appUrl(req)));

// PUT /api/share/email/(shareEmailId): subject and message (not resent)
export const PUT = route({ params: shareEmailParams, body: updateShareEmailBody, response: shareEmailResponse }, ({ ctx, params, body, req }) => updateShareEmail(ctx, params.shareEmailId, body, appUrl(req)));

// DELETE /api/share/email/(shareEmailId): forget the sending; the link share stays
export const DELETE = route({ params: shareEmailParams, response: noContent }, ({ ctx, params }) => deleteShareEmail(ctx, params.shareEmailId));

export const { PATCH, POST } = otherMethods({ GET, PUT, DELETE });
