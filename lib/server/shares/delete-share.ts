import "server-only";
import { and, eq } from "drizzle-orm";
import { linkAccessTokens, linkCodes, shares } from "@/db/schema";
import { writeLog } from "../audit/write-log";
import { logWho, type AuthedCtx } from "../context";
import { getOwnShareOrThrow } from "./load-share";

/** DELETE /share/(id): the key stops working at once (404 link_not_found); roots, activity and file tokens go with it. */
export async function deleteShare(ctx: AuthedCtx, shareId: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const share = await getOwnShareOrThrow(tx, ctx.actor.user, shareId, { forUpdate: true });
    await tx.delete(shares).where(eq(shares.id, share.id));
    // Not foreign keys (they serve drop links too): removed by hand.
    await tx.delete(linkAccessTokens).where(and(eq(linkAccessTokens.linkType, "share"), eq(linkAccessTokens.linkId, share.id)));
    await tx.delete(linkCodes).where(and(eq(linkCodes.linkType, "share"), eq(linkCodes.linkId, share.id)));
    await writeLog(tx, logWho(ctx, tx), { type: "ADMLLOG_DELETE", message: "Link share deleted", objectType: "share", objectId: share.id, object: share.name ?? share.key });
  });
}
