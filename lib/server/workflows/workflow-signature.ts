import "server-only";
import { and, eq, inArray, isNull } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { signatureRequests, workflowInstances, type WorkflowInstanceRow } from "@/db/schema";
import { SIGNATURE_STAMP, type CreateWorkflowInput, type WorkflowState } from "@/lib/contracts/workflows";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx, RequestInfo } from "../context";
import type { FileAccess } from "../files/get-file";
import { activateSignatureRequest } from "../signatures/activate-signature-request";
import { addSignatureActor } from "../signatures/add-signature-actor";
import { addSignatureDocument } from "../signatures/add-signature-document";
import { addSignatureField } from "../signatures/add-signature-field";
import { cancelSignatureRequest } from "../signatures/cancel-signature-request";
import { createSignatureRequest } from "../signatures/create-signature-request";
import { recordWorkflowEvent } from "./close-workflow-instance";
import { isFinal, stateFromSignatureStatus } from "./workflow-states";

/**
 * Flux 3 and 5 (api.md): a signature request of our own signer, level `electronic_signature`
 * (3) or `advanced_electronic_signature` (5): each object a document, each `signatures` entry a
 * signer, each `signature_fields` entry a 200x70 signature stamp (origin bottom-left), then
 * activated, so the signers get their signing links. Runs in the creation's transaction: a
 * refused document (not a PDF, encrypted) leaves no instance behind.
 */
export async function startWorkflowSignature(ctx: AuthedCtx, instance: WorkflowInstanceRow, input: CreateWorkflowInput, filesByIndex: FileAccess[], base: string) {
  const p = input.properties;
  const names = [...new Set(filesByIndex.map((f) => f.file.name))];
  const request = await createSignatureRequest(
    ctx,
    {
      name: `${names.join(", ")}`.slice(0, 255) || `Workflow ${instance.id}`,
      mode: "standard",
      ordered: false,
      level: instance.flux === 5 ? "advanced_electronic_signature" : "electronic_signature",
      send_copy: instance.sendCopy,
    },
    base,
  );
  const documentOf = new Map<number, number>();
  for (const access of filesByIndex) {
    if (documentOf.has(access.version.id)) continue;
    const doc = await addSignatureDocument(ctx, request.id, access.version.id, {});
    documentOf.set(access.version.id, doc.id);
  }
  const actorIds: number[] = [];
  for (const s of p.signatures ?? []) {
    const local = s.email.split("@")[0] || s.email;
    const actor = await addSignatureActor(
      ctx,
      request.id,
      { type: "signer", id: s.id, infos: { email: s.email, first_name: s.firstname || local, last_name: s.lastname || local } },
      base,
    );
    actorIds.push(actor.id);
  }
  for (const f of p.signature_fields ?? []) {
    const documentId = documentOf.get(filesByIndex[f.document].version.id)!;
    await addSignatureField(ctx, request.id, documentId, {
      type: "signature",
      page: f.page,
      x: f.x,
      y: f.y,
      width: SIGNATURE_STAMP.width,
      height: SIGNATURE_STAMP.height,
      signer_id: actorIds[f.signerIndex],
    });
  }
  await activateSignatureRequest(ctx, request.id, base);
  await ctx.db.update(workflowInstances).set({ signatureId: request.id }).where(eq(workflowInstances.id, instance.id));
}

/**
 * Flux 3 and 5 follow their request's status (api.md): instances still open whose request has
 * moved are brought up to date (state, closed_at, an event) and returned as they are now. The
 * request itself mailed the initiator and, with send_copy, the signers.
 */
export async function syncSignatureStates(db: DbOrTx, request: RequestInfo, instances: WorkflowInstanceRow[]): Promise<WorkflowInstanceRow[]> {
  const open = instances.filter((i) => (i.flux === 3 || i.flux === 5) && i.signatureId !== null && !isFinal(i.state));
  if (open.length === 0) return instances;
  const statuses = await db
    .select({ id: signatureRequests.id, status: signatureRequests.status })
    .from(signatureRequests)
    .where(inArray(signatureRequests.id, open.map((i) => i.signatureId!)));
  const statusOf = new Map(statuses.map((s) => [s.id, s.status]));
  const changed = new Map<number, WorkflowInstanceRow>();
  for (const instance of open) {
    const state = stateFromSignatureStatus(statusOf.get(instance.signatureId!));
    if (state === instance.state) continue;
    const now = new Date();
    const [updated] = await db
      .update(workflowInstances)
      .set({ state, updatedAt: now, closedAt: isFinal(state) ? now : null })
      // Only if nobody else moved it meanwhile: the event is written once.
      .where(and(eq(workflowInstances.id, instance.id), eq(workflowInstances.state, instance.state), isNull(workflowInstances.closedAt)))
      .returning();
    if (!updated) continue;
    await recordWorkflowEvent(db, request, { instanceId: instance.id, action: isFinal(state) ? "closed" : "moved", comment: state });
    if (isFinal(state)) {
      await writeLog(db, { actor: null, request }, { type: "ADMLLOG_UPDATE", message: `Workflow ${instance.id} closed: ${state}`, objectType: "workflow", objectId: instance.id });
    }
    changed.set(instance.id, updated);
  }
  return instances.map((i) => changed.get(i.id) ?? i);
}

/** Cancelling a flux 3 or 5 instance cancels its request while it is ongoing (its links die too). */
export async function cancelWorkflowSignature(ctx: AuthedCtx, instance: WorkflowInstanceRow, base: string): Promise<WorkflowState | null> {
  if (instance.signatureId === null) return null;
  const [request] = await ctx.db.select({ status: signatureRequests.status, userId: signatureRequests.userId }).from(signatureRequests).where(eq(signatureRequests.id, instance.signatureId)).limit(1);
  if (!request || request.status !== "ongoing") return null;
  // As the initiator, who owns the request (an administrator may cancel someone else's instance).
  await cancelSignatureRequest(ctx, instance.signatureId, base);
  return "cancelled";
}
