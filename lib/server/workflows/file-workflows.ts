import "server-only";
import { and, desc, eq, inArray, ne } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { signatureRequests, workflowInstances, workflowObjects } from "@/db/schema";
import type { FileWorkflowResponse, WorkflowState } from "@/lib/contracts/workflows";
import { isFinal, presentState, stateFromSignatureStatus } from "./workflow-states";

/**
 * The File's `workflow` field in full mode (api.md): for each file, the newest instance holding
 * it, open or closed; a cancelled one lets the file go. Flux 3 and 5 read their signature
 * request's status, as the instance itself does. One query for any number of files.
 */
export async function loadFileWorkflows(db: DbOrTx, fileIds: number[]): Promise<Map<number, FileWorkflowResponse>> {
  const ids = [...new Set(fileIds)];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ fileId: workflowObjects.fileId, id: workflowInstances.id, flux: workflowInstances.flux, state: workflowInstances.state, signatureStatus: signatureRequests.status })
    .from(workflowObjects)
    .innerJoin(workflowInstances, eq(workflowInstances.id, workflowObjects.instanceId))
    .leftJoin(signatureRequests, eq(signatureRequests.id, workflowInstances.signatureId))
    .where(and(inArray(workflowObjects.fileId, ids), ne(workflowInstances.state, "cancelled")))
    .orderBy(desc(workflowInstances.id));
  const found = new Map<number, FileWorkflowResponse>();
  for (const row of rows) {
    if (found.has(row.fileId)) continue;
    const followsRequest = (row.flux === 3 || row.flux === 5) && !isFinal(row.state) && row.signatureStatus !== null;
    const state = (followsRequest ? stateFromSignatureStatus(row.signatureStatus) : row.state) as WorkflowState;
    if (state === "cancelled") continue;
    found.set(row.fileId, { id: row.id, flux: row.flux, state: presentState(state), is_closed: isFinal(state) });
  }
  return found;
}
