import "server-only";
import { asc, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { shareRoots, shares, users, workflowEvents, workflowInstances, workflowObjects, workflowParticipants, type User, type WorkflowInstanceRow } from "@/db/schema";
import type { WorkflowState } from "@/lib/contracts/workflows";
import { writeLog } from "../audit/write-log";
import type { RequestInfo } from "../context";
import { FILE_EVENT, recordEvent } from "../events/record-event";
import { newLinkKey } from "../links/link-key";
import { shareUrl } from "../shares/present-share";
import { loadInstanceDocuments } from "./present-workflow-instances";
import { queueClosedMail, queueCopyMails } from "./workflow-mails";

/** How long the copy link of `send_copy` serves. */
export const COPY_LINK_DAYS = 30;

export type WorkflowEventInput = { instanceId: number; participantId?: number | null; userId?: number | null; action: string; comment?: string | null };

/** Opening a link and every move are kept with the address and user agent of whoever made them. */
export async function recordWorkflowEvent(db: DbOrTx, request: RequestInfo, event: WorkflowEventInput) {
  await db.insert(workflowEvents).values({
    instanceId: event.instanceId,
    participantId: event.participantId ?? null,
    userId: event.userId ?? null,
    action: event.action,
    comment: event.comment ?? null,
    ip: request.ip,
    userAgent: request.userAgent,
  });
}

type LogActor = Parameters<typeof writeLog>[1]["actor"];

/**
 * Ends an instance in a final state, inside the caller's transaction (which holds the instance's
 * row): `closed_at` (its links die), an event and a log entry, the outcome mailed to the
 * initiator, and with `send_copy` a download link to the documents mailed to everyone.
 * Cancellation is not a closure: see cancelWorkflowInstance.
 */
export async function closeWorkflowInstance(
  tx: DbOrTx,
  who: { actor: LogActor; request: RequestInfo },
  instance: WorkflowInstanceRow,
  state: WorkflowState,
  base: string,
): Promise<WorkflowInstanceRow> {
  const now = new Date();
  const [closed] = await tx.update(workflowInstances).set({ state, closedAt: now, updatedAt: now }).where(eq(workflowInstances.id, instance.id)).returning();
  await recordWorkflowEvent(tx, who.request, { instanceId: instance.id, userId: who.actor?.id ?? null, action: "closed", comment: state });
  const [owner] = await tx.select().from(users).where(eq(users.id, instance.ownerId)).limit(1);
  const documents = (await loadInstanceDocuments(tx, [instance.id])).get(instance.id) ?? [];
  const names = documents.map((d) => d.name);
  await writeLog(tx, who, { type: "ADMLLOG_UPDATE", message: `Workflow ${instance.id} closed: ${state}`, objectType: "workflow", objectId: instance.id, object: names.join(", ").slice(0, 255) });
  if (!owner) return closed;
  const participants = await tx.select().from(workflowParticipants).where(eq(workflowParticipants.instanceId, instance.id)).orderBy(asc(workflowParticipants.position));
  await queueClosedMail(tx, owner, closed, participants, names, base);
  if (closed.sendCopy && documents.length > 0) {
    const url = await createCopyShare(tx, who.request, owner, closed, base);
    await queueCopyMails(tx, owner, closed, participants, names, url);
  }
  return closed;
}

/**
 * The copy of `send_copy`: a link share of the initiator on the instance's files (and, flux 2,
 * the signed scan), preview and download, for COPY_LINK_DAYS. Creation checked the initiator's
 * share right; the share still serves only while they keep it (loadRootItems).
 */
async function createCopyShare(tx: DbOrTx, request: RequestInfo, owner: User, instance: WorkflowInstanceRow, base: string): Promise<string> {
  const objects = await tx.select().from(workflowObjects).where(eq(workflowObjects.instanceId, instance.id)).orderBy(asc(workflowObjects.position));
  const fileIds = [...new Set(objects.flatMap((o) => (o.signedFileId ? [o.fileId, o.signedFileId] : [o.fileId])))];
  const [share] = await tx
    .insert(shares)
    .values({ key: newLinkKey(), flags: 4, name: `Workflow ${instance.id}`, expirationDate: new Date(Date.now() + COPY_LINK_DAYS * 86_400_000), ownerId: owner.id })
    .returning();
  await tx.insert(shareRoots).values(fileIds.map((objectId) => ({ shareId: share.id, entityType: 1, objectId })));
  for (const fileId of fileIds) {
    await recordEvent(tx, request, { targetType: "file", targetId: fileId, type: FILE_EVENT.linkShare, actorId: owner.id, data: { share_id: share.id, workflow_id: instance.id } });
  }
  await writeLog(tx, { actor: owner, request }, { type: "ADMLLOG_INSERT", message: `Link share created for the copies of workflow ${instance.id}`, objectType: "share", objectId: share.id, object: share.name ?? share.key });
  return shareUrl(base, share.key);
}
