import "server-only";
import { eq } from "drizzle-orm";
import { fileTemplates } from "@/db/schema";
import { writeLog } from "../audit/write-log";
import { logWho, type AuthedCtx } from "../context";
import { enqueueJob } from "../jobs/enqueue";
import { getManagedTemplateOrThrow } from "./template-access";

/** DELETE /template/file/(id): files made from it keep their content; its blob goes when nothing else uses it. 204. */
export async function deleteTemplate(ctx: AuthedCtx, templateId: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const template = await getManagedTemplateOrThrow(tx, ctx.actor.user, templateId);
    await tx.delete(fileTemplates).where(eq(fileTemplates.id, template.id));
    await writeLog(tx, logWho(ctx, tx), { type: "ADMLLOG_DELETE", message: "File template deleted", objectType: "file_template", objectId: template.id, object: template.name });
    await enqueueJob(tx, "blobs.collect", {}, { dedupeKey: "blobs.collect", runAt: new Date(Date.now() + 60_000) });
  });
}
