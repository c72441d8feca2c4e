import { noContent } from "@/lib/contracts/common";
import { signatureActorParams } from "@/lib/contracts/signatures";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { deleteSignatureActor } from "@/lib/server/signatures/delete-signature-actor";

export const runtime = "nodejs";

// DELETE /api/signatures/(id)/actors/(actorId): drafts only; the actor's fields go too
export const DELETE = route({ params: signatureActorParams, response: noContent }, ({ ctx, params }) => deleteSignatureActor(ctx, params.signatureId, params.actorId));

export const { GET, POST, PUT, PATCH } = otherMethods({ DELETE });
