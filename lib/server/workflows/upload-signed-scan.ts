import "server-only";
import { asc, eq } from "drizzle-orm";
import { files, users, workflowObjects, workflowParticipants } from "@/db/schema";
import type { WorkflowInstanceResponse } from "@/lib/contracts/workflows";
import { getBlobStore } from "@/lib/server/blobs/stores";
import type { StoredBlob } from "@/lib/storage/blob-store";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx, Ctx } from "../context";
import { AppError } from "../errors";
import { commitUpload } from "../files/commit-upload";
import { sniffStoredType } from "../files/content-type";
import type { BodySource } from "../http/body-source";
import { streamMultipartFile } from "../http/multipart";
import { closeWorkflowInstance, recordWorkflowEvent } from "./close-workflow-instance";
import { presentForParticipant } from "./read-workflow-instance";
import { openParticipantTokenOrThrow } from "./workflow-access";

/** The largest scan accepted (a multi-page scan at 300 dpi stays well below). */
export const MAX_SCAN_BYTES = 100 * 1024 * 1024;

/** `contract.pdf` → `contract (signed).pdf`; the scan is a PDF whatever the original was. */
export const signedName = (original: string) => `${original.replace(/\.[^./\\]{1,10}$/, "")} (signed).pdf`;

/**
 * POST /workflow/instance/(token)/upload (flux 2): the signer of that link sends the scanned
 * signed document, multipart `targetFile`, a PDF (415 otherwise), streamed to the store. It
 * becomes a new file beside the original, `<name> (signed).pdf` (numbered on a clash), committed
 * through the upload path as the initiator (their write right and quota apply), and the instance
 * closes as signed: the initiator is mailed, and the copies go out with send_copy.
 * One scan is accepted: the decision is taken under the instance's row lock in the transaction
 * that commits the file, so a concurrent upload finds it taken (409) and leaves no file, no blob
 * and no quota behind (issue 25, finding 16).
 */
export async function uploadSignedScan(ctx: Ctx, token: string, source: BodySource, base: string): Promise<WorkflowInstanceResponse> {
  const { instance, participant } = await openParticipantTokenOrThrow(ctx.db, token);
  if (instance.flux !== 2 || participant.role !== "signer" || participant.decision) throw new AppError("conflict", "No signed document is expected through this link", { state: instance.state });
  const [original] = await ctx.db
    .select({ name: files.name, folderId: files.folderId })
    .from(workflowObjects)
    .innerJoin(files, eq(files.id, workflowObjects.fileId))
    .where(eq(workflowObjects.instanceId, instance.id))
    .orderBy(asc(workflowObjects.position))
    .limit(1);
  const [owner] = await ctx.db.select().from(users).where(eq(users.id, instance.ownerId)).limit(1);
  if (!original || !owner) throw new AppError("not_found", "The document of this request no longer exists");

  const store = getBlobStore();
  const { result: blob } = await streamMultipartFile<StoredBlob>(source, {
    field: "targetFile",
    maxFileBytes: MAX_SCAN_BYTES,
    onFile: (file) => store.put(file.stream, { maxBytes: MAX_SCAN_BYTES }),
    discard: (stored) => store.delete(stored.id).catch(() => {}),
  });
  if ((await sniffStoredType(blob, "scan.pdf")) !== "application/pdf") {
    await store.delete(blob.id).catch(() => {});
    throw new AppError("unsupported_media_type", "Send the scanned signed document as a PDF");
  }

  try {
    return await ctx.db.transaction(async (tx) => {
      // The instance's row lock first: racing uploads queue here, and all but the first find the decision taken.
      const locked = await openParticipantTokenOrThrow(tx, token, { forUpdate: true });
      const [signer] = await tx.select().from(workflowParticipants).where(eq(workflowParticipants.id, locked.participant.id));
      if (signer.decision) throw new AppError("conflict", "The signed document was already received", { state: locked.instance.state });
      const asOwner: AuthedCtx = { ...ctx, db: tx, actor: { user: owner, realUser: owner, sessionId: null } };
      const committed = await commitUpload(asOwner, { folderId: original.folderId, name: signedName(original.name), blob, neverOverwrite: true });
      const now = new Date();
      const [decided] = await tx.update(workflowParticipants).set({ decision: "signed", decidedAt: now }).where(eq(workflowParticipants.id, signer.id)).returning();
      await tx.update(workflowObjects).set({ signedFileId: committed.file.id }).where(eq(workflowObjects.instanceId, instance.id));
      await recordWorkflowEvent(tx, ctx.request, { instanceId: instance.id, participantId: signer.id, action: "signed", comment: committed.file.name });
      const who = { actor: null, request: ctx.request };
      await writeLog(tx, who, { type: "ADMLLOG_UPDATE", message: `${signer.email} sent the signed scan of workflow ${instance.id} (${committed.file.name})`, objectType: "workflow", objectId: instance.id, object: committed.file.name });
      const closed = await closeWorkflowInstance(tx, who, locked.instance, "signed", base);
      return presentForParticipant(tx, closed, decided);
    });
  } catch (error) {
    // Rolled back: no row holds the blob any more (commitUpload already let go of it when it failed itself).
    await store.delete(blob.id).catch(() => {});
    throw error;
  }
}
