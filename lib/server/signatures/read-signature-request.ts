import "server-only";
import type { SignatureResponse } from "@/lib/contracts/signatures";
import type { AuthedCtx } from "../context";
import { presentSignature } from "./present-signatures";
import { getReadableSignatureOrThrow } from "./signature-access";

/**
 * GET /signatures/(id): the initiator and administrators see everything (every actor's link);
 * a platform user who is an actor of a non-draft request sees it too, with only their own link.
 * `full` adds the activities and the children of a mass request.
 */
export async function readSignatureRequest(ctx: AuthedCtx, signatureId: number, base: string, options: { full?: boolean } = {}): Promise<SignatureResponse> {
  const { request, viewerActorId } = await getReadableSignatureOrThrow(ctx.db, ctx.actor.user, signatureId);
  return presentSignature(ctx.db, request, { base, full: options.full ?? true, viewer: viewerActorId === null ? { links: "all" } : { links: "own", actorId: viewerActorId } });
}
