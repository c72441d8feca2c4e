import "server-only";
import type { SharelinkResponse } from "@/lib/contracts/sharelinks";
import type { Ctx } from "../context";
import { getPublicShareOrThrow } from "../shares/load-share";
import { viewShare } from "../shares/view-share";
import { presentSharelink } from "./present-sharelinks";

/**
 * GET /sharelink/key/(key) (obsolete, no account): GET /share/key/(key)'s service (404/410, visit
 * counted when unlocked) answered in the legacy form; a protected link lists no files until its
 * access token is sent.
 */
export async function viewSharelink(ctx: Ctx, key: string, req: Request, base: string): Promise<SharelinkResponse> {
  const view = await viewShare(ctx, key, req);
  const share = await getPublicShareOrThrow(ctx.db, key);
  return presentSharelink(ctx.db, share, base, { owner: false, unlocked: view.unlocked });
}
