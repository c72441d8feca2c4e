import "server-only";
import { eq, sql } from "drizzle-orm";
import { fileTemplates } from "@/db/schema";
import type { TemplateResponse, UpdateTemplateInput } from "@/lib/contracts/templates";
import { writeLog } from "../audit/write-log";
import { logWho, type AuthedCtx } from "../context";
import { validateName } from "../files/names";
import { presentTemplates } from "./present-templates";
import { getManagedTemplateOrThrow } from "./template-access";

/** PUT /template/file/(id): name and description (administrators; for a folder's template, users who may write there). */
export async function updateTemplate(ctx: AuthedCtx, templateId: number, input: UpdateTemplateInput): Promise<TemplateResponse> {
  const user = ctx.actor.user;
  const name = input.name === undefined ? undefined : validateName(input.name);
  return ctx.db.transaction(async (tx) => {
    const template = await getManagedTemplateOrThrow(tx, user, templateId);
    const [updated] = await tx
      .update(fileTemplates)
      .set({ ...(name !== undefined ? { name } : {}), ...(input.description !== undefined ? { description: input.description.trim() } : {}), updatedAt: sql`now()` })
      .where(eq(fileTemplates.id, template.id))
      .returning();
    await writeLog(tx, logWho(ctx, tx), { type: "ADMLLOG_UPDATE", message: "File template updated", objectType: "file_template", objectId: template.id, object: updated.name });
    return (await presentTemplates(tx, user, [updated]))[0];
  });
}
