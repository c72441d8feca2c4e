import "server-only";
import type { SharelinkResponse } from "@/lib/contracts/sharelinks";
import type { Ctx } from "../context";
import { needsVisitor } from "../engagement/gate/share-gate";
import type { ShareVisit } from "../links/resolve-link-visitor";
import { viewShare } from "../shares/view-share";
import { presentSharelink } from "./present-sharelinks";

/**
 * GET /sharelink/key/(key) (obsolete, no account): GET /share/key/(key)'s service (404/410, visit
 * counted when unlocked) answered in the legacy form; a protected link lists no files until its
 * access token is sent, a gated one until a visitor's token is.
 */
export async function viewSharelink(ctx: Ctx, visit: ShareVisit, base: string): Promise<SharelinkResponse> {
  await viewShare(ctx, visit);
  return presentSharelink(ctx.db, visit.share, base, { owner: false, unlocked: visit.unlocked && (!needsVisitor(visit.share.gate) || visit.visitorId !== null) });
}
