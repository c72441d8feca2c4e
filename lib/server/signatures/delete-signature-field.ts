import "server-only";
import { eq } from "drizzle-orm";
import { signatureFields } from "@/db/schema";
import type { AuthedCtx } from "../context";
import { getDocumentOfOrThrow, getEditableDraftOrThrow, getFieldOfOrThrow, touch } from "./signature-access";

/** DELETE .../documents/(docId)/fields/(fieldId): drafts only. 204. */
export async function deleteSignatureField(ctx: AuthedCtx, signatureId: number, documentId: number, fieldId: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const request = await getEditableDraftOrThrow(tx, ctx.actor.user, signatureId, "remove a field");
    const doc = await getDocumentOfOrThrow(tx, request.id, documentId);
    const field = await getFieldOfOrThrow(tx, doc.id, fieldId);
    await tx.delete(signatureFields).where(eq(signatureFields.id, field.id));
    await touch(tx, request.id);
  });
}
