import "server-only";
import { eq } from "drizzle-orm";
import { identityLinks } from "@/db/schema";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { AppError, forbidden } from "../errors";
import { getLiveUserOrThrow } from "../users/user-access";
import { findUserLink, isSsoType } from "./identity-link";

/**
 * DELETE /user/(userId)/identity (administrators): the account's single sign-on identity no
 * longer opens it (a link made by mistake, a person who left the provider). An account the
 * provider created keeps no other way in until it gets a password. A directory account stays
 * its directory's. 204 whether or not there was a link.
 */
export async function clearUserIdentity(ctx: AuthedCtx, userId: number): Promise<void> {
  if (ctx.actor.user.role !== 3) throw forbidden("Only administrators see and link accounts' outside identities");
  await ctx.db.transaction(async (tx) => {
    const user = await getLiveUserOrThrow(tx, userId, { lock: true });
    const found = await findUserLink(tx, user.id);
    if (!found) return;
    if (!isSsoType(found.provider.type)) throw new AppError("conflict", `This account belongs to the directory ${found.provider.name}; it is not unlinked by hand`);
    await tx.delete(identityLinks).where(eq(identityLinks.id, found.link.id));
    await writeLog(tx, { actor: ctx.actor.user, request: ctx.request }, {
      type: "ADMLLOG_UPDATE",
      message: `Unlinked from ${found.provider.name} (${found.provider.type})`,
      objectType: "user",
      objectId: user.id,
      object: user.login,
    });
  });
}
