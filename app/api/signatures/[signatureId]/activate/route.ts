import { signatureParams, signatureResponse } from "@/lib/contracts/signatures";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { appUrl } from "@/lib/server/mail/app-url";
import { activateSignatureRequest } from "@/lib/server/signatures/activate-signature-request";

export const runtime = "nodejs";

// POST /api/signatures/(id)/activate: draft → ongoing; mails each actor whose turn it is
export const POST = route({ params: signatureParams, response: signatureResponse }, ({ ctx, params, req }) => activateSignatureRequest(ctx, params.signatureId, appUrl(req)));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
