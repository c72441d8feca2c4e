import "server-only";
import { eq } from "drizzle-orm";
import { shareEmails } from "@/db/schema";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { getOwnShareEmailOrThrow } from "./share-email-access";

/**
 * DELETE /share/email/(id): the record and its recipients go (cascade). The link share itself
 * stays: personal addresses keep opening it, no longer counted per recipient. 204.
 */
export async function deleteShareEmail(ctx: AuthedCtx, id: number): Promise<void> {
  const user = ctx.actor.user;
  await ctx.db.transaction(async (tx) => {
    const row = await getOwnShareEmailOrThrow(tx, user, id);
    await tx.delete(shareEmails).where(eq(shareEmails.id, row.id));
    await writeLog(tx, { actor: user, request: ctx.request }, { type: "ADMLLOG_DELETE", message: "Deleted an email share", objectType: "share_email", objectId: row.id, object: row.object });
  });
}
