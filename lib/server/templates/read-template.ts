import "server-only";
import type { TemplateResponse } from "@/lib/contracts/templates";
import type { AuthedCtx } from "../context";
import { presentTemplates } from "./present-templates";
import { getVisibleTemplateOrThrow } from "./template-access";

/** GET /template/file/(id): a template the caller sees. */
export async function readTemplate(ctx: AuthedCtx, templateId: number): Promise<TemplateResponse> {
  const { template } = await getVisibleTemplateOrThrow(ctx.db, ctx.actor.user, templateId);
  return (await presentTemplates(ctx.db, ctx.actor.user, [template]))[0];
}
