import "server-only";
import { and, count, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { signatureDocuments, signatureRequests } from "@/db/schema";
import type { CreateTemplateInput, SignatureResponse } from "@/lib/contracts/signatures";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { copyContent, insertDraft } from "./create-signature-request";
import { reloadAndPresent } from "./present-signatures";

/**
 * POST /signature-templates (issue 31): one of my requests (a draft, or any I initiated) saved as
 * a template: its settings, its documents, its actors as roles and their fields. The template
 * keeps a reference to each document's bytes as they are now (the same blob, which the blob
 * collector counts), so a later version of the file changes nothing. Another user's request is
 * a 404, as an unknown id.
 */
export async function createSignatureTemplate(ctx: AuthedCtx, input: CreateTemplateInput, base: string): Promise<SignatureResponse> {
  const user = ctx.actor.user;
  return ctx.db.transaction(async (tx) => {
    const source = await getSourceOrThrow(tx, user.id, input.signature_id);
    const [{ documents }] = await tx.select({ documents: count() }).from(signatureDocuments).where(eq(signatureDocuments.signatureId, source.id));
    if (documents === 0) throw new AppError("signature_state", "A template needs at least one document", { status: source.status });
    const row = await insertDraft(tx, user.id, { name: input.name ?? source.name }, source, { isTemplate: true });
    await copyContent(tx, source.id, row.id);
    await writeLog(tx, { actor: user, request: ctx.request }, { type: "ADMLLOG_INSERT", message: `Saved the signature template ${row.name}`, objectType: "signature", objectId: row.id, object: row.name });
    return reloadAndPresent(tx, row.id, { base, viewer: { links: "all" } });
  });
}

/** Owner-only, as templates are (administrators included): anyone else's request is a 404. */
async function getSourceOrThrow(tx: DbOrTx, userId: number, signatureId: number) {
  const [source] = await tx
    .select()
    .from(signatureRequests)
    .where(and(eq(signatureRequests.id, signatureId), eq(signatureRequests.userId, userId)))
    .limit(1);
  if (!source) throw new AppError("not_found", "Signature request not found");
  if (source.parentId !== null) throw new AppError("signature_state", "A mass request's child cannot become a template", { status: source.status });
  return source;
}
