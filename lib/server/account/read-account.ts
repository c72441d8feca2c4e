import "server-only";
import type { AuthedCtx } from "../context";
import { presentUser } from "../users/serialize-user";
import { currentLanguage } from "./current-language";

/** GET /account: the caller (or the AsId user) with the language the interface should use now. */
export async function readAccount(ctx: AuthedCtx, acceptLanguage: string | null) {
  const user = ctx.actor.user;
  return presentUser(ctx.db, user, { currentLanguage: currentLanguage(user.language, acceptLanguage) });
}
