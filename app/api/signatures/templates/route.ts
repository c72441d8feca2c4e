import { listSignaturesQuery, signatureListResponse } from "@/lib/contracts/signatures";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { appUrl } from "@/lib/server/mail/app-url";
import { listSignatureRequests } from "@/lib/server/signatures/list-signature-requests";

export const runtime = "nodejs";

// GET /api/signatures/templates: my templates (drafts saved with is_template: 1)
export const GET = route({ query: listSignaturesQuery, response: signatureListResponse }, ({ ctx, query, req }) => listSignatureRequests(ctx, "templates", query, appUrl(req)));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
