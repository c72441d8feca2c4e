import "server-only";
import type { SignatureResponse } from "@/lib/contracts/signatures";
import type { AuthedCtx } from "../context";
import { presentSignature } from "./present-signatures";
import { getOwnTemplateOrThrow } from "./template-access";

/** GET /signature-template/(id): the template with its documents, fields and roles (its actors). */
export async function readSignatureTemplate(ctx: AuthedCtx, templateId: number, base: string): Promise<SignatureResponse> {
  const template = await getOwnTemplateOrThrow(ctx.db, ctx.actor.user, templateId);
  return presentSignature(ctx.db, template, { base, full: false, viewer: { links: "all" } });
}
