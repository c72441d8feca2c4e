import "server-only";
import { eq } from "drizzle-orm";
import { workflowInstances, workflowParticipants, type WorkflowInstanceRow, type WorkflowParticipantRow } from "@/db/schema";
import type { TransitionInput, WorkflowInstanceResponse, WorkflowState } from "@/lib/contracts/workflows";
import { writeLog } from "../audit/write-log";
import type { Ctx } from "../context";
import { AppError } from "../errors";
import { closeWorkflowInstance, recordWorkflowEvent } from "./close-workflow-instance";
import { presentForParticipant } from "./read-workflow-instance";
import { assertAlive, getInstanceForUserOrThrow, openParticipantTokenOrThrow } from "./workflow-access";
import { transitionsFor, validationOutcome } from "./workflow-states";

/**
 * POST /workflow/instance/(token)/transition body `{state, comment?}` (api.md): the validator of
 * that link moves to a state listed in their `transitions_available`; anything else is a 409
 * naming what is offered. Signed-in internal validators do the same with the instance id. Flux 1
 * and 4: every validator must validate, any refusal refuses; the last decision closes the
 * instance (initiator mailed, copies sent). Flux 2: the signer may refuse. 200 instance.
 */
export async function transitionWorkflowInstance(ctx: Ctx, key: string | number, input: TransitionInput, base: string): Promise<WorkflowInstanceResponse> {
  return ctx.db.transaction(async (tx) => {
    let instance: WorkflowInstanceRow;
    let found: WorkflowParticipantRow | null;
    if (typeof key === "string") {
      ({ instance, participant: found } = await openParticipantTokenOrThrow(tx, key, { forUpdate: true }));
    } else {
      if (!ctx.actor) throw new AppError("unauthorized", "Authentication required: send Authorization: Bearer <token>");
      ({ instance, participant: found } = await getInstanceForUserOrThrow(tx, ctx.actor.user, key, { forUpdate: true }));
      assertAlive(instance);
    }
    // Read again under the instance's lock: a double click decides once.
    const participant = found ? (await tx.select().from(workflowParticipants).where(eq(workflowParticipants.id, found.id)))[0] : null;
    const offered = participant ? Object.values(transitionsFor(instance.flux, instance.state, participant)).flat().map((t) => t.id) : [];
    if (!participant || !offered.includes(input.state as WorkflowState)) {
      const message = offered.length ? `The state "${input.state}" is not offered here; offered: ${offered.join(", ")}` : "No move is offered to you on this instance";
      throw new AppError("conflict", message, { state: instance.state, offered });
    }
    const now = new Date();
    const [decided] = await tx
      .update(workflowParticipants)
      .set({ decision: input.state, comment: input.comment || null, decidedAt: now })
      .where(eq(workflowParticipants.id, participant.id))
      .returning();
    await recordWorkflowEvent(tx, ctx.request, { instanceId: instance.id, participantId: participant.id, userId: ctx.actor?.user.id ?? null, action: input.state, comment: input.comment || null });
    const who = { actor: ctx.actor?.user ?? null, request: ctx.request };
    await writeLog(tx, who, {
      type: "ADMLLOG_UPDATE",
      message: `${participant.email} ${input.state === "refused" ? "refused" : "validated"} workflow ${instance.id}`,
      objectType: "workflow",
      objectId: instance.id,
    });

    const next = await nextState(tx, instance, input.state as WorkflowState);
    let current: WorkflowInstanceRow;
    if (next !== instance.state) current = await closeWorkflowInstance(tx, who, instance, next, base);
    else [current] = await tx.update(workflowInstances).set({ updatedAt: now }).where(eq(workflowInstances.id, instance.id)).returning();
    return presentForParticipant(tx, current, decided);
  });
}

async function nextState(tx: Ctx["db"], instance: WorkflowInstanceRow, decided: WorkflowState): Promise<WorkflowState> {
  if (instance.flux === 2) return decided === "refused" ? "refused" : (instance.state as WorkflowState);
  const all = await tx.select({ decision: workflowParticipants.decision, role: workflowParticipants.role }).from(workflowParticipants).where(eq(workflowParticipants.instanceId, instance.id));
  return validationOutcome(all.filter((p) => p.role !== "signer").map((p) => p.decision));
}
