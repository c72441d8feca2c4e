import "server-only";
import { eq } from "drizzle-orm";
import { connectionOptions } from "@/db/schema";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { assertAdministratorsCanConnect } from "./assert-administrators-can-connect";
import { getOptionsTargetOrThrow } from "./options-target";

/**
 * DELETE /option/(targetId): removes the explicit row, so a user falls back to their groups and a
 * group to the defaults. Idempotent: without a row there is nothing to do and nothing to log.
 * A user's fallback may be stricter than their row, hence the administrators' guard here too.
 */
export async function deleteOptions(ctx: AuthedCtx, targetId: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const target = await getOptionsTargetOrThrow({ ...ctx, db: tx }, targetId, "write");
    const removed = await tx.delete(connectionOptions).where(eq(connectionOptions.targetId, target.id)).returning({ id: connectionOptions.targetId });
    if (removed.length === 0) return;
    await assertAdministratorsCanConnect(tx, ctx.request.ip);
    await writeLog(tx, { actor: ctx.actor.user, request: ctx.request }, {
      type: "ADMLLOG_DELETE",
      message: `Removed the explicit connection options of ${target.name}`,
      objectType: target.isGroup ? "group" : "user",
      objectId: target.id,
      object: target.name,
    });
  });
}
