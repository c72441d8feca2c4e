import "server-only";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { signatureActors, signatureDocuments, signatureFields, signatureRequests, type SignatureRequestRow } from "@/db/schema";
import type { SignatureResponse } from "@/lib/contracts/signatures";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { copyContent } from "./create-signature-request";
import { advanceRequest } from "./notify-actors";
import { reloadAndPresent } from "./present-signatures";
import { assertStatus, getOwnSignatureOrThrow } from "./signature-access";
import { assertLevelSupported } from "./signature-rules";

const cannot = (status: string, reason: string, details: Record<string, unknown> = {}) => new AppError("signature_state", `Cannot activate: ${reason}`, { status, reason, ...details });

/** What activation needs (api.md): a document, a signer, and a signature field for every signer. */
async function assertReady(db: DbOrTx, request: SignatureRequestRow) {
  if (request.isTemplate) throw cannot(request.status, "a template is copied into a new request, not activated");
  assertLevelSupported(request.level);
  const [docs, actors, fields] = await Promise.all([
    db.select({ id: signatureDocuments.id }).from(signatureDocuments).where(eq(signatureDocuments.signatureId, request.id)),
    db.select().from(signatureActors).where(eq(signatureActors.signatureId, request.id)),
    db.select({ actorId: signatureFields.actorId, type: signatureFields.type }).from(signatureFields).innerJoin(signatureDocuments, eq(signatureDocuments.id, signatureFields.documentId)).where(eq(signatureDocuments.signatureId, request.id)),
  ]);
  if (docs.length === 0) throw cannot(request.status, "the request has no document");
  const signers = actors.filter((a) => a.type === "signer");
  if (signers.length === 0) throw cannot(request.status, "the request has no signer");
  const without = signers.filter((s) => !fields.some((f) => f.actorId === s.id && f.type === "signature"));
  if (without.length) throw cannot(request.status, `no signature field for ${without.map((s) => s.email).join(", ")}`, { actors: without.map((s) => s.id) });
  for (const a of actors) assertLevelSupported(a.signatureLevel);
  return { signers, actors };
}

/**
 * POST /signatures/(id)/activate (api.md): draft → ongoing. Each actor whose turn it is gets a
 * mailed link (all of them, or the first by position when ordered). Mass mode makes one child
 * request per signer (with the followers), each activated the same way; the parent is ongoing
 * until every child is finished.
 */
export async function activateSignatureRequest(ctx: AuthedCtx, signatureId: number, base: string): Promise<SignatureResponse> {
  const user = ctx.actor.user;
  return ctx.db.transaction(async (tx) => {
    const request = await getOwnSignatureOrThrow(tx, user, signatureId, { forUpdate: true });
    assertStatus(request, ["draft"], "activate it");
    const { signers, actors } = await assertReady(tx, request);
    const now = new Date();
    if (request.mode === "mass") {
      await tx.update(signatureRequests).set({ status: "ongoing", isMasses: true, activatedAt: now, updatedAt: now }).where(eq(signatureRequests.id, request.id));
      const followers = actors.filter((a) => a.type === "follower").map((a) => a.id);
      for (const signer of signers) {
        const [child] = await tx
          .insert(signatureRequests)
          .values({
            userId: request.userId,
            parentId: request.id,
            name: `${request.name} — ${signer.firstName} ${signer.lastName}`.slice(0, 255),
            status: "ongoing",
            mode: "standard",
            level: request.level,
            reminderDay: request.reminderDay,
            reminderInterval: request.reminderInterval,
            reminderMax: request.reminderMax,
            expirationDate: request.expirationDate,
            sendCopy: request.sendCopy,
            subject: request.subject,
            message: request.message,
            activatedAt: now,
          })
          .returning();
        await copyContent(tx, request.id, child.id, { actorIds: [signer.id, ...followers] });
        await advanceRequest(tx, child, base, ctx.request, user.id);
      }
    } else {
      await tx.update(signatureRequests).set({ status: "ongoing", activatedAt: now, updatedAt: now }).where(eq(signatureRequests.id, request.id));
      const [fresh] = await tx.select().from(signatureRequests).where(eq(signatureRequests.id, request.id));
      await advanceRequest(tx, fresh, base, ctx.request, user.id);
    }
    await writeLog(tx, { actor: user, request: ctx.request }, { type: "ADMLLOG_UPDATE", message: `Sent the signature request ${request.name}`, objectType: "signature", objectId: request.id, object: request.name });
    return reloadAndPresent(tx, request.id, { base, full: true, viewer: { links: "all" } });
  });
}

