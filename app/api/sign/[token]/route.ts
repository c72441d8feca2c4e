import { publicSigningResponse, signatureActorResponse, signBody, signTokenParams } from "@/lib/contracts/signatures";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { appUrl } from "@/lib/server/mail/app-url";
import { readSigning } from "@/lib/server/signatures/read-signing";
import { signAsActor } from "@/lib/server/signatures/sign-as-actor";

export const runtime = "nodejs";

// GET /api/sign/(token) (no account; the token is the credential): the request as this actor sees it; marks it opened
export const GET = route({ auth: "none", params: signTokenParams, response: publicSigningResponse }, ({ ctx, params }) => readSigning(ctx, params.token));

// POST /api/sign/(token): sign ({fields, signature, sms_code?}) or approve ({approve: true}); 410 once used
export const POST = route({ auth: "none", params: signTokenParams, body: signBody, response: signatureActorResponse }, ({ ctx, params, body, req }) => signAsActor(ctx, params.token, body, appUrl(req)));

export const { PUT, PATCH, DELETE } = otherMethods({ GET, POST });
