import "server-only";
import { eq } from "drizzle-orm";
import { signatureRequests } from "@/db/schema";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { getOwnTemplateOrThrow } from "./template-access";

/** DELETE /signature-template/(id): the template goes; requests made from it keep their own copies. 204. */
export async function deleteSignatureTemplate(ctx: AuthedCtx, templateId: number): Promise<void> {
  const user = ctx.actor.user;
  await ctx.db.transaction(async (tx) => {
    const template = await getOwnTemplateOrThrow(tx, user, templateId, { forUpdate: true });
    await tx.delete(signatureRequests).where(eq(signatureRequests.id, template.id));
    await writeLog(tx, { actor: user, request: ctx.request }, { type: "ADMLLOG_DELETE", message: `Deleted the signature template ${template.name}`, objectType: "signature", objectId: template.id, object: template.name });
  });
}
