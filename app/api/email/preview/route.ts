import { previewEmailBody, previewEmailResponse } from "@/lib/contracts/emails";
import { previewEmail } from "@/lib/server/emails/preview-email";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// POST /api/email/preview: an alert template rendered with sample values, nothing saved (administrators)
export const POST = route({ auth: "admin", body: previewEmailBody, response: previewEmailResponse }, ({ ctx, body }) => previewEmail(ctx, body));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
