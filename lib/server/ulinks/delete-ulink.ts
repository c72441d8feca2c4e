import "server-only";
import { eq } from "drizzle-orm";
import { ulinks } from "@/db/schema";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { forgetUlinkSecrets, getOwnUlinkOrThrow } from "./ulink-access";

/**
 * DELETE /ulink/(id): the key stops working at once (404 `link_not_found`), with its access
 * tokens and codes; deposits already made stay in the folder. 204.
 */
export async function deleteUlink(ctx: AuthedCtx, ulinkId: number): Promise<void> {
  const user = ctx.actor.user;
  await ctx.db.transaction(async (tx) => {
    const link = await getOwnUlinkOrThrow(tx, user, ulinkId);
    await tx.delete(ulinks).where(eq(ulinks.id, link.id));
    await forgetUlinkSecrets(tx, [link.id]);
    await writeLog(tx, { actor: user, request: ctx.request }, { type: "ADMLLOG_DELETE", message: "Deleted a drop link", objectType: "ulink", objectId: link.id, object: link.name ?? link.key });
  });
}
