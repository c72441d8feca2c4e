import { refuseBody, signatureActorResponse, signTokenParams } from "@/lib/contracts/signatures";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { appUrl } from "@/lib/server/mail/app-url";
import { refuseSignature } from "@/lib/server/signatures/refuse-signature";

export const runtime = "nodejs";

// POST /api/sign/(token)/refuse (no account): refuse with a reason; the request is refused, everyone is told
export const POST = route({ auth: "none", params: signTokenParams, body: refuseBody, response: signatureActorResponse }, ({ ctx, params, body, req }) => refuseSignature(ctx, params.token, body, appUrl(req)));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
