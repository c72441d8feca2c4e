import "server-only";
import type { DbOrTx } from "@/db";
import { signatureActivities } from "@/db/schema";
import type { SignatureActivityCode } from "@/lib/contracts/signatures";
import type { RequestInfo } from "../context";

export type ActivityInput = {
  signatureId: number;
  action: SignatureActivityCode;
  /** The actor who acted (null: the initiator or the platform). */
  from?: number | null;
  /** The actor concerned. */
  to?: number | null;
  /** The platform user who acted, when any. */
  userId?: number | null;
  request?: RequestInfo | null;
  details?: Record<string, unknown>;
  /** When it happened, if not now (a completion, so that its mailed audit trail shows the same time). */
  date?: Date;
};

/** One line of a request's history (api.md's activity codes), with address and user agent for the audit trail. */
export async function recordActivity(db: DbOrTx, input: ActivityInput): Promise<void> {
  await db.insert(signatureActivities).values({
    signatureId: input.signatureId,
    action: input.action,
    fromActorId: input.from ?? null,
    toActorId: input.to ?? null,
    userId: input.userId ?? null,
    ip: input.request?.ip ?? null,
    userAgent: input.request?.userAgent ?? null,
    details: input.details ?? null,
    ...(input.date ? { date: input.date } : {}),
  });
}
