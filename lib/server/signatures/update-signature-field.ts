import "server-only";
import { eq } from "drizzle-orm";
import { signatureFields } from "@/db/schema";
import type { SignatureFieldResponse, UpdateFieldInput } from "@/lib/contracts/signatures";
import type { AuthedCtx } from "../context";
import { checkPlacement } from "./add-signature-field";
import { normaliseFieldSettings } from "./field-rules";
import { presentField } from "./present-signatures";
import { getDocumentOfOrThrow, getEditableDraftOrThrow, getFieldOfOrThrow, touch } from "./signature-access";

/** PUT .../documents/(docId)/fields/(fieldId): move, resize or change a field (partial); drafts only. */
export async function updateSignatureField(ctx: AuthedCtx, signatureId: number, documentId: number, fieldId: number, input: UpdateFieldInput): Promise<SignatureFieldResponse> {
  return ctx.db.transaction(async (tx) => {
    const request = await getEditableDraftOrThrow(tx, ctx.actor.user, signatureId, "change a field");
    const doc = await getDocumentOfOrThrow(tx, request.id, documentId);
    const field = await getFieldOfOrThrow(tx, doc.id, fieldId);
    const type = input.type ?? field.type;
    const next = normaliseFieldSettings({
      type,
      page: input.page ?? field.page,
      x: input.x ?? field.x,
      y: input.y ?? field.y,
      width: input.width ?? (input.size && type === "checkbox" ? input.size : field.width),
      height: input.height ?? (input.size && type === "checkbox" ? input.size : field.height),
      actorId: input.signer_id ?? field.actorId,
      optional: input.optional ?? field.optional,
      question: input.question !== undefined ? input.question : field.question,
      defaultValue: input.default_value !== undefined ? input.default_value : field.defaultValue,
      maxLength: input.max_length !== undefined ? input.max_length : field.maxLength,
      size: input.size !== undefined ? input.size : field.size,
      reason: input.reason !== undefined ? input.reason : field.reason,
      options: input.options !== undefined ? input.options : field.options,
      readOnly: input.read_only ?? field.readOnly,
      fontSize: input.font_size !== undefined ? input.font_size : field.fontSize,
    });
    await checkPlacement(tx, request.id, doc, next);
    const [updated] = await tx.update(signatureFields).set(next).where(eq(signatureFields.id, field.id)).returning();
    await touch(tx, request.id);
    return presentField(updated);
  });
}
