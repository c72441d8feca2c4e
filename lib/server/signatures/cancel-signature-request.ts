import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { signatureActors, signatureRequests, type SignatureRequestRow } from "@/db/schema";
import type { SignatureResponse } from "@/lib/contracts/signatures";
import { displayName, writeLog } from "../audit/write-log";
import type { AuthedCtx, RequestInfo } from "../context";
import { reloadAndPresent } from "./present-signatures";
import { recordActivity } from "./record-activity";
import { settleParent } from "./settle-parent";
import { assertStatus, getOwnSignatureOrThrow } from "./signature-access";
import { actorRecipient, queueSignatureMail } from "./signature-mails";

/**
 * POST /signatures/(id)/cancel: ongoing → cancelled, `deleted_at` set; every link dies (410
 * signing_cancelled) and the actors who had one are told. A mass request cancels its children.
 */
export async function cancelSignatureRequest(ctx: AuthedCtx, signatureId: number, base: string): Promise<SignatureResponse> {
  const user = ctx.actor.user;
  return ctx.db.transaction(async (tx) => {
    const request = await getOwnSignatureOrThrow(tx, user, signatureId, { forUpdate: true });
    assertStatus(request, ["ongoing"], "cancel it");
    const children = await tx.select().from(signatureRequests).where(and(eq(signatureRequests.parentId, request.id), eq(signatureRequests.status, "ongoing")));
    for (const one of [request, ...children]) await cancelOne(tx, one, displayName(user), user.id, ctx.request);
    await settleParent(tx, request);
    await writeLog(tx, { actor: user, request: ctx.request }, { type: "ADMLLOG_UPDATE", message: `Cancelled the signature request ${request.name}`, objectType: "signature", objectId: request.id, object: request.name });
    return reloadAndPresent(tx, request.id, { base, full: true, viewer: { links: "all" } });
  });
}

async function cancelOne(tx: DbOrTx, request: SignatureRequestRow, by: string, userId: number, info: RequestInfo) {
  const now = new Date();
  await tx.update(signatureRequests).set({ status: "cancelled", deletedAt: now, updatedAt: now }).where(eq(signatureRequests.id, request.id));
  await recordActivity(tx, { signatureId: request.id, action: "signature_request.cancelled", userId, request: info });
  const told = await tx.select().from(signatureActors).where(and(eq(signatureActors.signatureId, request.id), inArray(signatureActors.status, ["notified", "opened"])));
  for (const actor of told) await queueSignatureMail(tx, "cancelled", actorRecipient(actor), request, { actor: by });
}
