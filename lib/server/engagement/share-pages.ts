import "server-only";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { versionPreviews, type FileRow, type FileVersion, type ShareRow } from "@/db/schema";
import type { SharePagesJson } from "@/lib/contracts/engagement";
import type { Ctx } from "../context";
import { AppError } from "../errors";
import type { ShareVisit } from "../links/resolve-link-visitor";
import { findRendition } from "../previews/find-rendition";
import { contentKind } from "../previews/formats";
import { PdfTooHeavy, PdfTooLarge, PdfUnreadable, readPdfPageCount, REQUEST_WAIT_MS, type PdfSource } from "../previews/pdf-document";
import { recordShareAccess } from "../shares/record-access";
import { getSharedFileOrThrow } from "../shares/share-items";
import { assertShareAllows } from "../shares/share-tokens";

export type PagedKind = SharePagesJson["kind"];
export type PagedFile = { file: FileRow; version: FileVersion; kind: PagedKind; share: ShareRow };

/**
 * A file of the link shown page by page: the link must allow previews (403 for a download-only
 * link), the file must be one the link shows (404; `fileId` is the Share content's id, any of
 * the file's version ids, its current version being shown), and a PDF, an office document or an
 * image (415 for any other format: it has no pages to show).
 */
export async function getPagedFileOrThrow(db: DbOrTx, { share }: ShareVisit, fileId: number): Promise<PagedFile> {
  await assertShareAllows(db, share, "preview");
  const { file, version } = await getSharedFileOrThrow(db, share, { versionId: fileId });
  const kind = contentKind(version.mime, file.name);
  if (kind !== "pdf" && kind !== "office" && kind !== "image") {
    throw new AppError("unsupported_media_type", "This file has no pages to show: only PDFs, office documents and images are shown page by page");
  }
  return { file, version, kind, share };
}

/**
 * GET /share/key/(key)/file/(fileId)/pages: how many pages the viewer shows. Counts as a preview
 * of the file for the owner's activity, like a preview token does.
 */
export async function getSharePages(ctx: Ctx, visit: ShareVisit, fileId: number): Promise<SharePagesJson> {
  const { file, version, kind, share } = await getPagedFileOrThrow(ctx.db, visit, fileId);
  const counted = await countPages(ctx.db, version, kind);
  await recordShareAccess(ctx.db, share, ctx.request, { kind: "preview", fileId: file.id, versionId: version.id, timeline: true, recipientId: visit.recipientId, visitorId: visit.visitorId });
  return { file_id: fileId, name: file.name, kind, ...counted };
}

async function countPages(db: DbOrTx, version: FileVersion, kind: PagedKind): Promise<{ pages: number; ready: boolean }> {
  if (kind === "image") return { pages: 1, ready: true };
  if (!version.blobId) throw new AppError("not_found", "The content of this file is missing");
  // An office document is paged through its PDF rendition (previews job): not made yet, not ready.
  const source: PdfSource | null = kind === "pdf" ? { blobId: version.blobId, size: version.size } : await findRendition(db, version);
  if (!source) return { pages: 0, ready: false };
  // The previews job counted a PDF's pages; an office rendition's, or a PDF not yet seen, are counted now.
  if (kind === "pdf") {
    const [row] = await db.select({ pageCount: versionPreviews.pageCount }).from(versionPreviews).where(eq(versionPreviews.versionId, version.id));
    if (row?.pageCount) return { pages: row.pageCount, ready: true };
  }
  try {
    return { pages: await readPdfPageCount(source, { waitMs: REQUEST_WAIT_MS }), ready: true };
  } catch (error) {
    if (error instanceof PdfTooHeavy || error instanceof PdfTooLarge || error instanceof PdfUnreadable) {
      throw new AppError("unsupported_media_type", `This document cannot be shown: ${error.message}`);
    }
    throw error;
  }
}
