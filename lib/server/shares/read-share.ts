import "server-only";
import type { ShareResponse } from "@/lib/contracts/shares";
import type { AuthedCtx } from "../context";
import { getOwnShareOrThrow } from "./load-share";
import { presentShare } from "./present-share";

/** GET /share/(id): the owner's (or an administrator's) view of a link share. */
export async function readShare(ctx: AuthedCtx, shareId: number, base: string): Promise<ShareResponse> {
  return presentShare(ctx.db, await getOwnShareOrThrow(ctx.db, ctx.actor.user, shareId), base);
}
