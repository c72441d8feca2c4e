import "server-only";
import { eq } from "drizzle-orm";
import { linkVisitors, linkVisits } from "@/db/schema";
import type { LinkCtx } from "../../http/route";
import { getSharedFileOrThrow } from "../../shares/share-items";
import { visitorOfTokenOrThrow } from "./visit-token";

/**
 * POST /share/key/(key)/visits: the visitor opens one document of the link. `file_id` is the
 * contract's File id as the share's content lists it (any version id of a file the link exposes;
 * 404 otherwise); the visit records the version served now, whose pages its batches report.
 */
export async function startVisit(ctx: LinkCtx<"share">, fileId: number): Promise<{ visit_id: number }> {
  const { share } = ctx.link;
  const visitor = await visitorOfTokenOrThrow(ctx.db, ctx.link);
  const { version } = await getSharedFileOrThrow(ctx.db, share, { versionId: fileId });
  return ctx.db.transaction(async (tx) => {
    const [visit] = await tx
      .insert(linkVisits)
      .values({ shareId: share.id, visitorId: visitor.visitorId, tokenHash: visitor.tokenHash, fileId: version.id })
      .returning({ id: linkVisits.id });
    await tx.update(linkVisitors).set({ lastAt: new Date() }).where(eq(linkVisitors.id, visitor.visitorId));
    return { visit_id: visit.id };
  });
}
