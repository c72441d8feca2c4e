import "server-only";
import { eq } from "drizzle-orm";
import { signatureDocuments } from "@/db/schema";
import type { AuthedCtx } from "../context";
import { getDocumentOfOrThrow, getEditableDraftOrThrow, touch } from "./signature-access";

/** DELETE /signatures/(id)/documents/(docId): drafts only; its fields go with it, the file stays. 204. */
export async function deleteSignatureDocument(ctx: AuthedCtx, signatureId: number, documentId: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const request = await getEditableDraftOrThrow(tx, ctx.actor.user, signatureId, "remove a document");
    const doc = await getDocumentOfOrThrow(tx, request.id, documentId);
    await tx.delete(signatureDocuments).where(eq(signatureDocuments.id, doc.id));
    await touch(tx, request.id);
  });
}
