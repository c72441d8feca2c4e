import { addActorBody, signatureActorResponse, signatureParams } from "@/lib/contracts/signatures";
import { otherMethods } from "@/lib/server/http/methods";
import { created, route } from "@/lib/server/http/route";
import { appUrl } from "@/lib/server/mail/app-url";
import { addSignatureActor } from "@/lib/server/signatures/add-signature-actor";

export const runtime = "nodejs";

// POST /api/signatures/(id)/actors: a signer, approver or follower (drafts only)
export const POST = route({ params: signatureParams, body: addActorBody, response: { 201: signatureActorResponse } }, async ({ ctx, params, body, req }) => created(await addSignatureActor(ctx, params.signatureId, body, appUrl(req))));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
