import "server-only";
import { and, asc, eq, isNull } from "drizzle-orm";
import { users, workflowInstances, workflowParticipants } from "@/db/schema";
import type { WorkflowInstanceResponse } from "@/lib/contracts/workflows";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { recordWorkflowEvent } from "./close-workflow-instance";
import { loadInstanceDocuments, presentWorkflowInstances } from "./present-workflow-instances";
import { getOwnInstanceOrThrow } from "./workflow-access";
import { queueCancelledMails } from "./workflow-mails";
import { cancelWorkflowSignature, syncSignatureStates } from "./workflow-signature";
import { isFinal } from "./workflow-states";

/**
 * DELETE /workflow/instance/(id): its initiator (or an administrator) cancels an instance still
 * open. State `cancelled`, every link dies (410 workflow_cancelled), those still awaited are told;
 * flux 3 and 5 cancel their signature request too. The instance stays listed. A closed one is a
 * 409. 200 the cancelled instance.
 */
export async function cancelWorkflowInstance(ctx: AuthedCtx, instanceId: number, base: string): Promise<WorkflowInstanceResponse> {
  const user = ctx.actor.user;
  return ctx.db.transaction(async (tx) => {
    const locked = await getOwnInstanceOrThrow(tx, user, instanceId, { forUpdate: true });
    const [instance] = await syncSignatureStates(tx, ctx.request, [locked]);
    if (isFinal(instance.state)) throw new AppError("conflict", `This instance is already closed (${instance.state})`, { state: instance.state });
    if (instance.flux === 3 || instance.flux === 5) await cancelWorkflowSignature({ ...ctx, db: tx }, instance, base);
    const now = new Date();
    const [cancelled] = await tx.update(workflowInstances).set({ state: "cancelled", closedAt: now, updatedAt: now }).where(eq(workflowInstances.id, instance.id)).returning();
    await recordWorkflowEvent(tx, ctx.request, { instanceId: instance.id, userId: user.id, action: "cancelled" });
    const names = ((await loadInstanceDocuments(tx, [instance.id])).get(instance.id) ?? []).map((d) => d.name);
    await writeLog(tx, { actor: user, request: ctx.request }, { type: "ADMLLOG_DELETE", message: `Workflow ${instance.id} cancelled`, objectType: "workflow", objectId: instance.id, object: names.join(", ").slice(0, 255) });
    const awaited = await tx
      .select()
      .from(workflowParticipants)
      .where(and(eq(workflowParticipants.instanceId, instance.id), isNull(workflowParticipants.decision)))
      .orderBy(asc(workflowParticipants.position));
    const [owner] = instance.ownerId === user.id ? [user] : await tx.select().from(users).where(eq(users.id, instance.ownerId)).limit(1);
    if (owner) await queueCancelledMails(tx, owner, awaited, names);
    return (await presentWorkflowInstances(tx, [cancelled], { kind: "owner" }))[0];
  });
}
