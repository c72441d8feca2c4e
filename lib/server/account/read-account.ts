import "server-only";
import type { AuthedCtx } from "../context";
import { presentAccount } from "./present-account";

/** GET /account: the caller (or the AsId user) with the language the interface should use now. */
export async function readAccount(ctx: AuthedCtx, acceptLanguage: string | null) {
  return presentAccount(ctx.db, ctx.actor.user, acceptLanguage);
}
