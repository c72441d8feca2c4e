import "server-only";
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { workflowInstances, workflowParticipants, type User, type WorkflowInstanceRow, type WorkflowParticipantRow } from "@/db/schema";
import { AppError } from "../errors";
import { parseParticipantToken, secretMatches } from "./workflow-tokens";

const notFound = () => new AppError("not_found", "Workflow instance not found");

/** An instance its initiator (or an administrator) manages; anyone else gets a 404, as for an unknown id. */
export async function getOwnInstanceOrThrow(db: DbOrTx, user: Pick<User, "id" | "role">, instanceId: number, options: { forUpdate?: boolean } = {}): Promise<WorkflowInstanceRow> {
  const query = db.select().from(workflowInstances).where(eq(workflowInstances.id, instanceId)).limit(1);
  const [instance] = options.forUpdate ? await query.for("update") : await query;
  if (!instance || (instance.ownerId !== user.id && user.role !== 3)) throw notFound();
  return instance;
}

/** How a signed-in caller reaches an instance: as its initiator, or as one of its internal validators. */
export type UserAccess = { instance: WorkflowInstanceRow; participant: WorkflowParticipantRow | null; isOwner: boolean };

/**
 * An instance seen by a signed-in user: its initiator (or an administrator) sees it whole, an
 * internal validator as they would through their mailed link. Anyone else: 404.
 */
export async function getInstanceForUserOrThrow(db: DbOrTx, user: Pick<User, "id" | "role">, instanceId: number, options: { forUpdate?: boolean } = {}): Promise<UserAccess> {
  const query = db.select().from(workflowInstances).where(eq(workflowInstances.id, instanceId)).limit(1);
  const [instance] = options.forUpdate ? await query.for("update") : await query;
  if (!instance) throw notFound();
  const [participant] = await db
    .select()
    .from(workflowParticipants)
    .where(and(eq(workflowParticipants.instanceId, instance.id), eq(workflowParticipants.userId, user.id), eq(workflowParticipants.role, "interne")))
    .limit(1);
  const isOwner = instance.ownerId === user.id || user.role === 3;
  if (!isOwner && !participant) throw notFound();
  return { instance, participant: participant ?? null, isOwner };
}

export type TokenAccess = { instance: WorkflowInstanceRow; participant: WorkflowParticipantRow };

/**
 * The participant behind a mailed link. An unknown or forged link is a 404 `link_not_found`; a
 * link whose instance was cancelled or has closed is dead: 410 `workflow_cancelled` /
 * `workflow_closed` (tokens die with closure and cancellation).
 */
export async function openParticipantTokenOrThrow(db: DbOrTx, token: string, options: { forUpdate?: boolean } = {}): Promise<TokenAccess> {
  const parsed = parseParticipantToken(token);
  const unknown = new AppError("link_not_found", "This validation link does not exist");
  if (!parsed) throw unknown;
  const [participant] = await db.select().from(workflowParticipants).where(eq(workflowParticipants.id, parsed.participantId)).limit(1);
  if (!participant || !secretMatches(parsed.secret, participant.tokenHash)) throw unknown;
  const query = db.select().from(workflowInstances).where(eq(workflowInstances.id, participant.instanceId)).limit(1);
  const [instance] = options.forUpdate ? await query.for("update") : await query;
  if (!instance) throw unknown;
  assertAlive(instance);
  return { instance, participant };
}

/** A closed or cancelled instance no longer answers to its links. */
export function assertAlive(instance: Pick<WorkflowInstanceRow, "state" | "closedAt">) {
  if (instance.state === "cancelled") throw new AppError("workflow_cancelled", "This validation was cancelled by its initiator");
  if (instance.closedAt) throw new AppError("workflow_closed", "This validation is closed");
}
