import "server-only";
import type { AuthedCtx } from "../context";
import { presentRights } from "./present-rights";
import { getRightOrThrow } from "./right-access";

/** GET /right/(rightId): needs the share right on its folder (owners and administrators hold it). */
export async function getRight(ctx: AuthedCtx, rightId: number) {
  const { right } = await getRightOrThrow(ctx.db, ctx.actor.user, rightId);
  const [json] = await presentRights(ctx.db, [right]);
  return json;
}
