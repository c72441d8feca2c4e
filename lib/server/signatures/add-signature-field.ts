import "server-only";
import type { DbOrTx } from "@/db";
import { signatureFields, type SignatureDocumentRow, type SignatureFieldRow } from "@/db/schema";
import type { AddFieldInput, SignatureFieldResponse } from "@/lib/contracts/signatures";
import type { AuthedCtx } from "../context";
import { presentField } from "./present-signatures";
import { getActorOfOrThrow, getDocumentOfOrThrow, getEditableDraftOrThrow, touch } from "./signature-access";
import { bad, normaliseFieldSettings } from "./field-rules";
import { defaultFieldSize } from "./signature-rules";

/** A field must lie on its page (the sizes inspectPdf gave) and belong to a signer of the same request. */
export async function checkPlacement(db: DbOrTx, signatureId: number, doc: SignatureDocumentRow, field: Pick<SignatureFieldRow, "page" | "x" | "y" | "width" | "height" | "actorId">) {
  const page = doc.pages[field.page - 1];
  if (!page) throw bad("page", `The document has ${doc.pages.length} page(s)`);
  if (field.x + field.width > page.width + 0.01 || field.y + field.height > page.height + 0.01) {
    throw bad("x", `The field (${field.x}, ${field.y}, ${field.width}×${field.height}) lies outside page ${field.page} (${page.width}×${page.height} points)`);
  }
  const actor = await getActorOfOrThrow(db, signatureId, field.actorId).catch(() => {
    throw bad("signer_id", "Not an actor of this request");
  });
  if (actor.type !== "signer") throw bad("signer_id", `Actor ${actor.id} is a ${actor.type}, not a signer`);
}

/**
 * POST /signatures/(id)/documents/(docId)/fields (api.md): a field of one of FIELD_TYPES for one
 * signer, its settings checked against its type (normaliseFieldSettings); outside the page or for anyone but a signer of this request is a 400. Drafts only.
 */
export async function addSignatureField(ctx: AuthedCtx, signatureId: number, documentId: number, input: AddFieldInput): Promise<SignatureFieldResponse> {
  return ctx.db.transaction(async (tx) => {
    const request = await getEditableDraftOrThrow(tx, ctx.actor.user, signatureId, "add a field");
    const doc = await getDocumentOfOrThrow(tx, request.id, documentId);
    const size = defaultFieldSize(input.type, input.size);
    const values = normaliseFieldSettings({
      documentId: doc.id,
      actorId: input.signer_id,
      type: input.type,
      page: input.page,
      x: input.x,
      y: input.y,
      width: input.width ?? size.width,
      height: input.height ?? size.height,
      optional: input.optional ?? false,
      question: input.question ?? null,
      defaultValue: input.default_value ?? null,
      maxLength: input.max_length ?? null,
      size: input.type === "checkbox" ? (input.size ?? size.width) : null,
      reason: input.reason ?? null,
      options: input.options ?? null,
      readOnly: input.read_only ?? false,
      fontSize: input.font_size ?? null,
    });
    await checkPlacement(tx, request.id, doc, values);
    const [field] = await tx.insert(signatureFields).values(values).returning();
    await touch(tx, request.id);
    return presentField(field);
  });
}

