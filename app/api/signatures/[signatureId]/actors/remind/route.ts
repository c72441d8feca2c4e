import { remindBody, remindResponse, signatureParams } from "@/lib/contracts/signatures";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { appUrl } from "@/lib/server/mail/app-url";
import { remindSignatureActors } from "@/lib/server/signatures/remind-signature-actors";

export const runtime = "nodejs";

// POST /api/signatures/(id)/actors/remind: mail every awaited actor their link again
export const POST = route({ params: signatureParams, body: remindBody, response: remindResponse }, ({ ctx, params, body, req }) => remindSignatureActors(ctx, params.signatureId, null, appUrl(req), body.message ?? null));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
