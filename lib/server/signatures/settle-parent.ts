import "server-only";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { signatureRequests, type SignatureRequestRow } from "@/db/schema";
import { recordActivity } from "./record-activity";

const FINISHED = new Set(["done", "refused", "expired", "cancelled"]);

/** A mass request is done once every child request is finished, whatever each one's outcome. */
export async function settleParent(db: DbOrTx, child: Pick<SignatureRequestRow, "parentId">): Promise<void> {
  if (child.parentId === null) return;
  const [parent] = await db.select().from(signatureRequests).where(eq(signatureRequests.id, child.parentId)).for("update");
  if (!parent || parent.status !== "ongoing") return;
  const children = await db.select({ status: signatureRequests.status }).from(signatureRequests).where(eq(signatureRequests.parentId, parent.id));
  if (!children.every((c) => FINISHED.has(c.status))) return;
  const now = new Date();
  await db.update(signatureRequests).set({ status: "done", completedAt: now, updatedAt: now }).where(eq(signatureRequests.id, parent.id));
  await recordActivity(db, { signatureId: parent.id, action: "signature_request.done", details: { children: children.map((c) => c.status) } });
}
