import "server-only";
import { eq } from "drizzle-orm";
import { ulinkEmails, ulinks } from "@/db/schema";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { forgetUlinkSecrets } from "./ulink-access";
import { getOwnUlinkEmailOrThrow } from "./ulink-email-access";

/** DELETE /ulink/email/(id): every recipient's link stops working at once; deposits stay. 204. */
export async function deleteUlinkEmail(ctx: AuthedCtx, id: number): Promise<void> {
  const user = ctx.actor.user;
  await ctx.db.transaction(async (tx) => {
    const row = await getOwnUlinkEmailOrThrow(tx, user, id);
    const removed = await tx.delete(ulinks).where(eq(ulinks.ulinkEmailId, row.id)).returning({ id: ulinks.id });
    await forgetUlinkSecrets(tx, removed.map((l) => l.id));
    await tx.delete(ulinkEmails).where(eq(ulinkEmails.id, row.id));
    await writeLog(tx, { actor: user, request: ctx.request }, { type: "ADMLLOG_DELETE", message: "Deleted a drop link by email", objectType: "ulink_email", objectId: row.id, object: row.object });
  });
}
