import "server-only";
import { and, count, desc, eq } from "drizzle-orm";
import { workflowInstances, workflowParticipants } from "@/db/schema";
import type { WorkflowInstanceResponse } from "@/lib/contracts/workflows";
import type { AuthedCtx } from "../context";
import { envelope } from "../present/envelope";
import { presentWorkflowInstances } from "./present-workflow-instances";
import { syncSignatureStates } from "./workflow-signature";

type Query = { offset_start: number; nb_objects: number; role: "initiator" | "validator" };

/**
 * GET /workflow/instances: the caller's instances, newest first (envelope). `role=validator`
 * lists instead those where the caller is an internal validator, each as they see it, with the
 * moves still offered to them (the app's "To validate" list).
 */
export async function listWorkflowInstances(ctx: AuthedCtx, query: Query) {
  const user = ctx.actor.user;
  if (query.role === "validator") {
    const mine = and(eq(workflowParticipants.userId, user.id), eq(workflowParticipants.role, "interne"));
    const [[{ total }], rows] = await Promise.all([
      ctx.db.select({ total: count() }).from(workflowParticipants).where(mine),
      ctx.db
        .select({ instance: workflowInstances, participant: workflowParticipants })
        .from(workflowParticipants)
        .innerJoin(workflowInstances, eq(workflowInstances.id, workflowParticipants.instanceId))
        .where(mine)
        .orderBy(desc(workflowInstances.id))
        .offset(query.offset_start)
        .limit(query.nb_objects),
    ]);
    const participants = new Map(rows.map((r) => [r.instance.id, r.participant]));
    const objects = await presentWorkflowInstances(ctx.db, rows.map((r) => r.instance), { kind: "participant", participants });
    return envelope<WorkflowInstanceResponse>(objects, query.offset_start, Number(total));
  }
  const own = eq(workflowInstances.ownerId, user.id);
  const [[{ total }], rows] = await Promise.all([
    ctx.db.select({ total: count() }).from(workflowInstances).where(own),
    ctx.db.select().from(workflowInstances).where(own).orderBy(desc(workflowInstances.id)).offset(query.offset_start).limit(query.nb_objects),
  ]);
  const current = await syncSignatureStates(ctx.db, ctx.request, rows);
  const objects = await presentWorkflowInstances(ctx.db, current, { kind: "owner" });
  return envelope<WorkflowInstanceResponse>(objects, query.offset_start, Number(total));
}

