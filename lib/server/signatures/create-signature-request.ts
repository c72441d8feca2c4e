import "server-only";
import { and, asc, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { signatureActors, signatureDocuments, signatureFields, signatureRequests, type SignatureRequestRow } from "@/db/schema";
import type { CreateSignatureInput, SignatureResponse } from "@/lib/contracts/signatures";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { reloadAndPresent } from "./present-signatures";
import { assertLevelSupported, assertFutureDate } from "./signature-rules";

/**
 * POST /signatures (api.md): a new draft owned by the caller. With `template_id`, one of the
 * caller's templates is copied into it: its documents (the same bytes), actors and fields.
 */
export async function createSignatureRequest(ctx: AuthedCtx, input: CreateSignatureInput, base: string): Promise<SignatureResponse> {
  const user = ctx.actor.user;
  assertLevelSupported(input.level);
  assertFutureDate(input.expiration_date);
  return ctx.db.transaction(async (tx) => {
    let template: SignatureRequestRow | undefined;
    if (input.template_id !== undefined) {
      [template] = await tx
        .select()
        .from(signatureRequests)
        .where(and(eq(signatureRequests.id, input.template_id), eq(signatureRequests.isTemplate, true)))
        .limit(1);
      if (!template || (template.userId !== user.id && user.role !== 3)) throw new AppError("template_not_found", "Template not found");
    }
    const row = await insertDraft(tx, user.id, input, template);
    if (template) await copyContent(tx, template.id, row.id);
    await writeLog(tx, { actor: user, request: ctx.request }, { type: "ADMLLOG_INSERT", message: `Created the signature request ${row.name}`, objectType: "signature", objectId: row.id, object: row.name });
    return reloadAndPresent(tx, row.id, { base, viewer: { links: "all" } });
  });
}

/** A new draft of `userId` (or a template): the body's settings, else the template's, else the defaults. */
export async function insertDraft(tx: DbOrTx, userId: number, input: CreateSignatureInput, template?: SignatureRequestRow, options: { isTemplate?: boolean } = {}): Promise<SignatureRequestRow> {
  const mode = input.mode ?? (template?.mode as CreateSignatureInput["mode"]) ?? "standard";
  const [row] = await tx
    .insert(signatureRequests)
    .values({
      userId,
      name: input.name,
      mode,
      ordered: input.ordered ?? template?.ordered ?? false,
      level: input.level ?? template?.level ?? "electronic_signature",
      reminderDay: input.reminder_day !== undefined ? input.reminder_day : (template?.reminderDay ?? null),
      reminderInterval: template?.reminderInterval ?? null,
      reminderMax: template?.reminderMax ?? null,
      expirationDate: input.expiration_date ?? null,
      sendCopy: input.send_copy ?? template?.sendCopy ?? false,
      subject: input.subject !== undefined ? input.subject || null : (template?.subject ?? null),
      message: input.message !== undefined ? input.message || null : (template?.message ?? null),
      isTemplate: options.isTemplate ?? false,
    })
    .returning();
  return row;
}

/** Copies documents, actors and fields of one request into another (templates, mass children). */
export async function copyContent(tx: DbOrTx, fromId: number, toId: number, options: { actorIds?: number[] } = {}): Promise<Map<number, number>> {
  const actors = await tx
    .select()
    .from(signatureActors)
    .where(options.actorIds ? and(eq(signatureActors.signatureId, fromId), inArray(signatureActors.id, options.actorIds)) : eq(signatureActors.signatureId, fromId))
    .orderBy(asc(signatureActors.position), asc(signatureActors.id));
  const actorMap = new Map<number, number>();
  for (const a of actors) {
    const [copy] = await tx
      .insert(signatureActors)
      .values({ signatureId: toId, userId: a.userId, type: a.type, position: a.position, email: a.email, firstName: a.firstName, lastName: a.lastName, locale: a.locale, phone: a.phone, signatureLevel: a.signatureLevel })
      .returning({ id: signatureActors.id });
    actorMap.set(a.id, copy.id);
  }
  const docs = await tx.select().from(signatureDocuments).where(eq(signatureDocuments.signatureId, fromId)).orderBy(asc(signatureDocuments.position), asc(signatureDocuments.id));
  for (const d of docs) {
    const [copy] = await tx
      .insert(signatureDocuments)
      .values({ signatureId: toId, fileId: d.fileId, blobId: d.blobId, folderId: d.folderId, name: d.name, initialPosition: d.initialPosition, pages: d.pages, position: d.position })
      .returning({ id: signatureDocuments.id });
    const fields = await tx.select().from(signatureFields).where(eq(signatureFields.documentId, d.id)).orderBy(asc(signatureFields.id));
    const kept = fields.filter((f) => actorMap.has(f.actorId));
    if (kept.length) {
      await tx.insert(signatureFields).values(
        kept.map((f) => ({
          documentId: copy.id,
          actorId: actorMap.get(f.actorId)!,
          type: f.type,
          page: f.page,
          x: f.x,
          y: f.y,
          width: f.width,
          height: f.height,
          optional: f.optional,
          question: f.question,
          defaultValue: f.defaultValue,
          maxLength: f.maxLength,
          size: f.size,
          reason: f.reason,
          options: f.options,
          readOnly: f.readOnly,
          fontSize: f.fontSize,
        })),
      );
    }
  }
  return actorMap;
}
