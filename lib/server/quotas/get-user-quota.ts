import "server-only";
import { managesUser } from "../users/managed-users";
import type { AuthedCtx } from "../context";
import { forbidden } from "../errors";
import { getLiveUserOrThrow } from "../users/user-access";
import { usedByUser } from "./assert-quota";

/**
 * GET /user/(userId)/quota: {quota, used} (api.md: `used`, not the example's `user`). Everyone
 * reads their own; administrators anyone's; managers those of the users of their groups. Other
 * ids are a 403 whether they exist or not, as for reading the user.
 */
export async function getUserQuota(ctx: AuthedCtx, userId: number) {
  const actor = ctx.actor.user;
  const allowed = userId === actor.id || actor.role === 3 || (actor.role === 4 && (await managesUser(ctx.db, actor.id, userId)));
  if (!allowed) throw forbidden("You may not read this user's quota");
  const user = await getLiveUserOrThrow(ctx.db, userId);
  return { quota: user.quota, used: await usedByUser(ctx.db, user.id) };
}
