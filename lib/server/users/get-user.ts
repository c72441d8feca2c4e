import "server-only";
import { managesUser } from "./managed-users";
import type { AuthedCtx } from "../context";
import { forbidden } from "../errors";
import { presentUser } from "./serialize-user";
import { getLiveUserOrThrow } from "./user-access";

/**
 * GET /user/(userId). Everyone reads themselves; administrators read anyone; managers read the
 * users of the groups they manage. Other ids are a 403 whether they exist or not.
 */
export async function getUser(ctx: AuthedCtx, userId: number) {
  const actor = ctx.actor.user;
  const allowed =
    userId === actor.id || actor.role === 3 || (actor.role === 4 && (await managesUser(ctx.db, actor.id, userId)));
  if (!allowed) throw forbidden("You may not read this user");
  return presentUser(ctx.db, await getLiveUserOrThrow(ctx.db, userId));
}
