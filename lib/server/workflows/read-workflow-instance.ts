import "server-only";
import { and, desc, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { workflowEvents, workflowParticipants, type WorkflowInstanceRow, type WorkflowParticipantRow } from "@/db/schema";
import type { WorkflowInstanceResponse } from "@/lib/contracts/workflows";
import type { Ctx, RequestInfo } from "../context";
import { AppError } from "../errors";
import { recordWorkflowEvent } from "./close-workflow-instance";
import { presentWorkflowInstances } from "./present-workflow-instances";
import { getInstanceForUserOrThrow, openParticipantTokenOrThrow } from "./workflow-access";
import { syncSignatureStates } from "./workflow-signature";

/**
 * GET /workflow/instance/(token): the instance as the validator of that mailed link sees it,
 * with the moves offered to them (api.md); a dead link is a 410. The same path with an instance
 * id serves signed-in callers: its initiator sees it whole, an internal validator as through
 * their link (both at once when the initiator is also a validator). Opening is recorded with the
 * address and user agent.
 */
export async function readWorkflowInstance(ctx: Ctx, key: string | number): Promise<WorkflowInstanceResponse> {
  if (typeof key === "string") {
    const { instance, participant } = await openParticipantTokenOrThrow(ctx.db, key);
    const opened = await markOpened(ctx.db, ctx.request, participant, null);
    return presentForParticipant(ctx.db, instance, opened);
  }
  if (!ctx.actor) throw new AppError("unauthorized", "Authentication required: send Authorization: Bearer <token>");
  const user = ctx.actor.user;
  const access = await getInstanceForUserOrThrow(ctx.db, user, key);
  const [instance] = await syncSignatureStates(ctx.db, ctx.request, [access.instance]);
  const participant = access.participant ? await markOpened(ctx.db, ctx.request, access.participant, user.id) : null;
  if (!access.isOwner) return presentForParticipant(ctx.db, instance, participant!);
  const [whole] = await presentWorkflowInstances(ctx.db, [instance], { kind: "owner" });
  if (!participant) return whole;
  const mine = await presentForParticipant(ctx.db, instance, participant);
  return { ...whole, me: mine.me, transitions_available: mine.transitions_available };
}

export async function presentForParticipant(db: DbOrTx, instance: WorkflowInstanceRow, participant: WorkflowParticipantRow): Promise<WorkflowInstanceResponse> {
  const [json] = await presentWorkflowInstances(db, [instance], { kind: "participant", participants: new Map([[instance.id, participant]]) });
  return json;
}

/**
 * The first opening sets `opened_at`; an opening is recorded each time the link is opened from
 * another address or browser than the last one recorded, so a forwarded link shows.
 */
async function markOpened(db: DbOrTx, request: RequestInfo, participant: WorkflowParticipantRow, userId: number | null): Promise<WorkflowParticipantRow> {
  let current = participant;
  if (!participant.openedAt) {
    const [updated] = await db.update(workflowParticipants).set({ openedAt: new Date() }).where(eq(workflowParticipants.id, participant.id)).returning();
    current = updated ?? participant;
  }
  const [last] = await db
    .select({ ip: workflowEvents.ip, userAgent: workflowEvents.userAgent })
    .from(workflowEvents)
    .where(and(eq(workflowEvents.instanceId, participant.instanceId), eq(workflowEvents.participantId, participant.id), eq(workflowEvents.action, "opened")))
    .orderBy(desc(workflowEvents.id))
    .limit(1);
  if (!last || last.ip !== request.ip || last.userAgent !== request.userAgent) {
    await recordWorkflowEvent(db, request, { instanceId: participant.instanceId, participantId: participant.id, userId, action: "opened" });
  }
  return current;
}
