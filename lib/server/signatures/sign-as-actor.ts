import "server-only";
import { and, eq } from "drizzle-orm";
import { signatureActors, signatureDocuments, signatureFields, type SignatureActorRow } from "@/db/schema";
import { MAX_TYPED_SIGNATURE, type SignatureActorResponse, type SignInput } from "@/lib/contracts/signatures";
import type { Ctx } from "../context";
import { AppError } from "../errors";
import { advanceRequest } from "./notify-actors";
import { presentActor } from "./present-signatures";
import { recordActivity } from "./record-activity";
import { readDrawnSignature } from "./drawn-signature";
import { bad } from "./field-rules";
import { cleanText, fieldValues } from "./field-values";
import { checkSigningCode } from "./signing-code";
import { needsCode, openSignerOrThrow } from "./signer-access";

/**
 * POST /sign/(token) (api.md): a signer signs (`fields` and `signature`), an approver approves
 * (`approve: true`). Every required field of this actor must be filled (400 naming it); the
 * one-time code is checked when asked for. The actor becomes `done` and the link dies (410
 * signing_done); then the next actor is told, or the completion job is queued.
 */
export async function signAsActor(ctx: Ctx, token: string, input: SignInput, base: string): Promise<SignatureActorResponse> {
  // The code is checked outside the transaction, so a wrong try is counted even though the request fails.
  const before = await openSignerOrThrow(ctx.db, token);
  if (needsCode(before.request, before.actor)) await checkSigningCode(ctx.db, before.actor, input.sms_code, ctx.request.ip);
  // Decoded and encoded again before the transaction, off the event loop, within its pixel limits.
  const drawn = before.actor.type === "signer" && input.signature?.type === "drawn" ? await readDrawnSignature(input.signature.image) : null;
  return ctx.db.transaction(async (tx) => {
    // Locked and checked again: two submissions of one link sign once.
    const { request, actor } = await openSignerOrThrow(tx, token, { forUpdate: true });
    const now = new Date();
    let update: Partial<SignatureActorRow>;
    if (actor.type === "approver") {
      if (input.approve !== true) throw bad("approve", "An approver answers with approve: true (or refuses)");
      update = { status: "done", doneAt: now };
      await recordActivity(tx, { signatureId: request.id, action: "approver.approved", from: actor.id, to: actor.id, userId: actor.userId, request: ctx.request });
    } else if (actor.type === "signer") {
      const sig = input.signature;
      let kind: string | null = null;
      let image: string | null = null;
      let text: string | null = null;
      if (sig?.type === "drawn") {
        kind = "drawn";
        image = drawn;
      } else if (sig?.type === "typed") {
        kind = "typed";
        text = cleanText(sig.text ?? "", "signature.text", MAX_TYPED_SIGNATURE);
        if (!text) throw bad("signature.text", "A typed signature needs text");
      }
      const fields = await tx
        .select({ field: signatureFields })
        .from(signatureFields)
        .innerJoin(signatureDocuments, eq(signatureDocuments.id, signatureFields.documentId))
        .where(and(eq(signatureFields.actorId, actor.id), eq(signatureDocuments.signatureId, request.id)));
      const values = fieldValues(fields.map((f) => f.field), input, actor, kind !== null, now);
      if (kind === null) throw bad("signature", "A signer signs with a drawn or typed signature");
      for (const v of values) await tx.update(signatureFields).set({ value: v.value, filledAt: now }).where(eq(signatureFields.id, v.id));
      update = { status: "done", doneAt: now, signatureKind: kind, signatureImage: image, signatureText: text, codeHash: null };
      await recordActivity(tx, { signatureId: request.id, action: "signer.signed", from: actor.id, to: actor.id, userId: actor.userId, request: ctx.request, details: { signature: kind, fields: values.length } });
    } else {
      throw new AppError("forbidden", "A follower neither signs nor approves");
    }
    const [done] = await tx.update(signatureActors).set(update).where(eq(signatureActors.id, actor.id)).returning();
    await advanceRequest(tx, request, base, ctx.request);
    return presentActor(done, { base, withLink: false });
  });
}
