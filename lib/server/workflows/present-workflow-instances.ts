import "server-only";
import { asc, eq, inArray, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { DbOrTx } from "@/db";
import { fileVersions, files, workflowObjects, workflowParticipants, type WorkflowInstanceRow, type WorkflowParticipantRow } from "@/db/schema";
import type { WorkflowDocumentResponse, WorkflowInstanceResponse, WorkflowParticipantResponse, WorkflowState } from "@/lib/contracts/workflows";
import { iso } from "../present/envelope";
import { loadOwnerNames } from "../users/owner-names";
import { fluxInfo, isFinal, presentState, transitionsFor } from "./workflow-states";

/**
 * Who is looking: the initiator (every participant, no moves of their own), or participants
 * (per instance, the one reading it: only themselves, and the moves offered to them).
 */
export type Viewer = { kind: "owner" } | { kind: "participant"; participants: Map<number, WorkflowParticipantRow> };

export type InstanceDocument = WorkflowDocumentResponse & { fileId: number };

/** Serialises instances for one viewer in a bounded number of queries, whatever their number. */
export async function presentWorkflowInstances(db: DbOrTx, instances: WorkflowInstanceRow[], viewer: Viewer): Promise<WorkflowInstanceResponse[]> {
  if (instances.length === 0) return [];
  const ids = instances.map((i) => i.id);
  const [documents, participants, names] = await Promise.all([
    loadInstanceDocuments(db, ids),
    viewer.kind === "owner"
      ? db.select().from(workflowParticipants).where(inArray(workflowParticipants.instanceId, ids)).orderBy(asc(workflowParticipants.position))
      : Promise.resolve([...viewer.participants.values()]),
    loadOwnerNames(db, instances.map((i) => i.ownerId)),
  ]);
  return instances.map((instance) => {
    const docs = documents.get(instance.id) ?? [];
    const own = participants.filter((p) => p.instanceId === instance.id);
    const me = viewer.kind === "participant" ? viewer.participants.get(instance.id) : undefined;
    const stored = (instance.properties ?? {}) as Record<string, unknown>;
    // A validator never learns who else was asked: the lists of people stay with the initiator.
    const properties = me ? Object.fromEntries(Object.entries(stored).filter(([key]) => key !== "validation" && key !== "signatures")) : stored;
    const json: WorkflowInstanceResponse = {
      id: instance.id,
      object_type: docs.length > 0 ? "file" : null,
      object_id: docs[0]?.id ?? null,
      flux: fluxInfo(instance.flux),
      state: presentState(instance.state as WorkflowState),
      owner_id: instance.ownerId,
      owner: names.get(instance.ownerId) ?? "",
      properties: [properties],
      creation: iso(instance.createdAt)!,
      edit: iso(instance.updatedAt)!,
      is_closed: isFinal(instance.state),
      transitions_available: me ? transitionsFor(instance.flux, instance.state, me) : {},
      data_objects: docs.map((d) => ({ type: "file" as const, id: d.id })),
      comment: instance.comment,
      documents: docs.map((d) => (instance.flux === 2 ? { id: d.id, name: d.name, size: d.size, mime: d.mime, signed_id: d.signed_id, signed_name: d.signed_name } : { id: d.id, name: d.name, size: d.size, mime: d.mime })),
    };
    if (me) json.me = presentParticipant(me);
    else json.validators = own.map(presentParticipant);
    if (instance.flux === 3 || instance.flux === 5) json.signature_id = instance.signatureId;
    return json;
  });
}

export function presentParticipant(p: WorkflowParticipantRow): WorkflowParticipantResponse {
  return {
    id: p.id,
    type: p.role as WorkflowParticipantResponse["type"],
    user_id: p.userId,
    email: p.email,
    name: p.name,
    decision: (p.decision as WorkflowParticipantResponse["decision"]) ?? null,
    comment: p.comment,
    date: iso(p.decidedAt),
    opened: p.openedAt !== null,
  };
}

const signedFiles = alias(files, "signed_files");

/** The signed scan is a file of its own (never a new version of another): its first version is what the signer sent. */
export const SIGNED_SCAN_NUMBER = 1;

/** The files of instances, in their order: the version sent (the File id), its name now, size and type. */
export async function loadInstanceDocuments(db: DbOrTx, instanceIds: number[]): Promise<Map<number, InstanceDocument[]>> {
  const rows = await db
    .select({
      instanceId: workflowObjects.instanceId,
      versionId: workflowObjects.versionId,
      fileId: workflowObjects.fileId,
      name: files.name,
      size: fileVersions.size,
      mime: fileVersions.mime,
      signedName: signedFiles.name,
      // The scan as the signer sent it, never a version uploaded over it since (issue 25).
      signedVersionId: sql<number | null>`(SELECT v.id FROM file_versions v WHERE v.file_id = ${signedFiles.id} AND v.number = ${SIGNED_SCAN_NUMBER} AND v.deleted_at IS NULL)`,
    })
    .from(workflowObjects)
    .innerJoin(files, eq(files.id, workflowObjects.fileId))
    .innerJoin(fileVersions, eq(fileVersions.id, workflowObjects.versionId))
    .leftJoin(signedFiles, eq(signedFiles.id, workflowObjects.signedFileId))
    .where(inArray(workflowObjects.instanceId, instanceIds))
    .orderBy(asc(workflowObjects.instanceId), asc(workflowObjects.position));
  const byInstance = new Map<number, InstanceDocument[]>();
  for (const r of rows) {
    const list = byInstance.get(r.instanceId) ?? [];
    list.push({ id: r.versionId, fileId: r.fileId, name: r.name, size: r.size, mime: r.mime, signed_id: r.signedVersionId ?? null, signed_name: r.signedName ?? null });
    byInstance.set(r.instanceId, list);
  }
  return byInstance;
}
