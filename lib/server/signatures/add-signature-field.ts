import "server-only";
import type { DbOrTx } from "@/db";
import { signatureFields, type SignatureDocumentRow, type SignatureFieldRow } from "@/db/schema";
import type { AddFieldInput, SignatureFieldResponse } from "@/lib/contracts/signatures";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { presentField } from "./present-signatures";
import { getActorOfOrThrow, getDocumentOfOrThrow, getEditableDraftOrThrow, touch } from "./signature-access";
import { defaultFieldSize } from "./signature-rules";

const bad = (path: string, message: string) => new AppError("invalid_request", `Invalid request: ${path}: ${message}`, [{ path, message }]);

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
 * POST /signatures/(id)/documents/(docId)/fields (api.md): a signature, checkbox or text field
 * for one signer; outside the page or for anyone but a signer of this request is a 400. Drafts only.
 */
export async function addSignatureField(ctx: AuthedCtx, signatureId: number, documentId: number, input: AddFieldInput): Promise<SignatureFieldResponse> {
  return ctx.db.transaction(async (tx) => {
    const request = await getEditableDraftOrThrow(tx, ctx.actor.user, signatureId, "add a field");
    const doc = await getDocumentOfOrThrow(tx, request.id, documentId);
    const size = defaultFieldSize(input.type, input.size);
    const values = {
      documentId: doc.id,
      actorId: input.signer_id,
      type: input.type,
      page: input.page,
      x: input.x,
      y: input.y,
      width: input.width ?? size.width,
      height: input.height ?? size.height,
      optional: input.type === "signature" ? false : (input.optional ?? false),
      question: input.question ?? null,
      defaultValue: input.default_value ?? null,
      maxLength: input.max_length ?? null,
      size: input.type === "checkbox" ? (input.size ?? size.width) : null,
      reason: input.reason ?? null,
    };
    if (values.defaultValue !== null && values.maxLength !== null && values.defaultValue.length > values.maxLength) throw bad("default_value", "Longer than max_length");
    await checkPlacement(tx, request.id, doc, values);
    const [field] = await tx.insert(signatureFields).values(values).returning();
    await touch(tx, request.id);
    return presentField(field);
  });
}

