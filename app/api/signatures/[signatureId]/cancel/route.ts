import { signatureParams, signatureResponse } from "@/lib/contracts/signatures";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { appUrl } from "@/lib/server/mail/app-url";
import { cancelSignatureRequest } from "@/lib/server/signatures/cancel-signature-request";

export const runtime = "nodejs";

// POST /api/signatures/(id)/cancel: ongoing → cancelled; every link dies
export const POST = route({ params: signatureParams, response: signatureResponse }, ({ ctx, params, req }) => cancelSignatureRequest(ctx, params.signatureId, appUrl(req)));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
