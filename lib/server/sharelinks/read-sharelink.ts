import "server-only";
import type { SharelinkResponse } from "@/lib/contracts/sharelinks";
import type { AuthedCtx } from "../context";
import { getOwnShareOrThrow } from "../shares/load-share";
import { presentSharelink } from "./present-sharelinks";

/** GET /sharelink/(id) (obsolete): one of my link shares in the legacy form; anyone else 404. */
export async function readSharelink(ctx: AuthedCtx, shareId: number, base: string): Promise<SharelinkResponse> {
  return presentSharelink(ctx.db, await getOwnShareOrThrow(ctx.db, ctx.actor.user, shareId), base, { owner: true, unlocked: true });
}
