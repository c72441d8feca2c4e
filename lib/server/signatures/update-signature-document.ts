import "server-only";
import { eq } from "drizzle-orm";
import { signatureDocuments, signatureFields } from "@/db/schema";
import type { SignatureDocumentResponse, UpdateDocumentInput } from "@/lib/contracts/signatures";
import type { AuthedCtx } from "../context";
import { initialPosition } from "./add-signature-document";
import { presentDocument } from "./present-signatures";
import { getDocumentOfOrThrow, getEditableDraftOrThrow, touch } from "./signature-access";

/** PUT /signatures/(id)/documents/(docId): its name and initials; drafts only. */
export async function updateSignatureDocument(ctx: AuthedCtx, signatureId: number, documentId: number, input: UpdateDocumentInput): Promise<SignatureDocumentResponse> {
  return ctx.db.transaction(async (tx) => {
    const request = await getEditableDraftOrThrow(tx, ctx.actor.user, signatureId, "change a document");
    const doc = await getDocumentOfOrThrow(tx, request.id, documentId);
    const [updated] = await tx
      .update(signatureDocuments)
      .set({ name: input.name, initialPosition: initialPosition(input.initials) })
      .where(eq(signatureDocuments.id, doc.id))
      .returning();
    await touch(tx, request.id);
    const fields = await tx.select().from(signatureFields).where(eq(signatureFields.documentId, doc.id));
    return presentDocument(updated, fields);
  });
}
