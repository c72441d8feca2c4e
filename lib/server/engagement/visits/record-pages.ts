import "server-only";
import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { fileVersions, linkPageEvents, linkVisitPages, linkVisits, versionPreviews } from "@/db/schema";
import type { PagesInput } from "@/lib/contracts/engagement";
import { AppError } from "../../errors";
import type { LinkCtx } from "../../http/route";
import { MAX_RENDERED_PAGES } from "../../previews/serve-rendition";
import { countPagesBatch } from "./pages-throttle";
import { visitorOfTokenOrThrow } from "./visit-token";

/**
 * POST /share/key/(key)/visits/(visitId)/pages: visible time per page, appended as events and
 * added to the visit's per-page totals (what the owner's analytics read), in one transaction of
 * three statements. A visit answers only to the access token that opened it (api.md): any other
 * token, or a visit of another link, is the same 404 as an unknown one.
 */
export async function recordPages(ctx: LinkCtx<"share">, visitId: number, input: PagesInput): Promise<void> {
  const { share } = ctx.link;
  await countPagesBatch(ctx.db, share.id, ctx.request.ip);
  const { tokenHash } = await visitorOfTokenOrThrow(ctx.db, ctx.link);
  const [visit] = await ctx.db
    .select({ id: linkVisits.id, visitorId: linkVisits.visitorId, fileId: linkVisits.fileId })
    .from(linkVisits)
    .where(and(eq(linkVisits.id, visitId), eq(linkVisits.shareId, share.id), eq(linkVisits.tokenHash, tokenHash)))
    .limit(1);
  if (!visit) throw new AppError("not_found", "Visit not found");
  const pages = await pageCountOf(ctx.db, visit.fileId);
  const beyond = input.pages.find((entry) => entry.page > pages);
  if (beyond) throw new AppError("invalid_request", `This document has ${pages} page(s): there is no page ${beyond.page}`, { field: "pages" });

  // One row per page for the upsert: a statement may not update the same row twice.
  const totals = new Map<number, number>();
  for (const { page, ms } of input.pages) totals.set(page, (totals.get(page) ?? 0) + ms);
  const common = { shareId: share.id, visitId: visit.id, visitorId: visit.visitorId, fileId: visit.fileId };
  await ctx.db.transaction(async (tx) => {
    await tx.insert(linkPageEvents).values(input.pages.map(({ page, ms }) => ({ ...common, page, ms })));
    await tx
      .insert(linkVisitPages)
      .values([...totals].map(([page, ms]) => ({ ...common, page, ms })))
      .onConflictDoUpdate({ target: [linkVisitPages.visitId, linkVisitPages.page], set: { ms: sql`${linkVisitPages.ms} + excluded.ms` } });
    await tx.update(linkVisits).set({ lastAt: new Date() }).where(eq(linkVisits.id, visit.id));
  });
}

/**
 * The pages a visit may report: an image has one; a PDF or office document its rendition's
 * count once the preview job has read it; until then, as many as the viewer renders.
 */
async function pageCountOf(db: DbOrTx, versionId: number): Promise<number> {
  const [row] = await db
    .select({ mime: fileVersions.mime, pageCount: versionPreviews.pageCount })
    .from(fileVersions)
    .leftJoin(versionPreviews, eq(versionPreviews.versionId, fileVersions.id))
    .where(eq(fileVersions.id, versionId))
    .limit(1);
  if (row?.mime?.startsWith("image/")) return 1;
  return row?.pageCount && row.pageCount > 0 ? row.pageCount : MAX_RENDERED_PAGES;
}
