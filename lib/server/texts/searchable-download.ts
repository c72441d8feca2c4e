import "server-only";
import { eq } from "drizzle-orm";
import { blobs, versionTexts } from "@/db/schema";
import type { AuthedCtx } from "../context";
import { planDownload, type DownloadRequest, type PreparedDownload } from "../downloads/prepare-download";
import { AppError } from "../errors";
import { getFileOrThrow } from "../files/get-file";

/**
 * GET /file/(fileId)/download?searchable=1: the searchable PDF the OCR job made of a scan (the
 * scan's pages with their text invisible over them; a PDF's pages that had a text layer as they
 * were), with the rights, events, ranges and headers of the download of the original, which stays
 * untouched. Named after the file with ".pdf" (a PDF keeps its name). 423 while OCR is under
 * way, 404 when the file was not OCR'd (it has text of its own, or is no scan).
 */
export async function prepareSearchableDownload(ctx: AuthedCtx, versionId: number, latest: boolean, http: DownloadRequest): Promise<PreparedDownload> {
  const { file, version } = await getFileOrThrow(ctx.db, ctx.actor.user, versionId, "download", { latest });
  const [row] = await ctx.db
    .select({ state: versionTexts.state, blobId: versionTexts.searchableBlobId, size: versionTexts.searchableSize, md5: blobs.md5 })
    .from(versionTexts)
    .leftJoin(blobs, eq(blobs.id, versionTexts.searchableBlobId))
    .where(eq(versionTexts.versionId, version.id));
  if (row && (row.state === "pending" || row.state === "preparing")) {
    throw new AppError("locked", "The text of this file is being read; try again in a moment", { state: row.state });
  }
  if (!row?.blobId || row.size == null) throw new AppError("not_found", "This file has no searchable PDF (only scans read by OCR have one)");
  const name = /\.pdf$/i.test(file.name) ? file.name : `${file.name.replace(/\.[^.]+$/, "")}.pdf`;
  return planDownload(
    ctx.db,
    {
      file: { ...file, name },
      // The ETag names these bytes, not the original's.
      version: { ...version, blobId: row.blobId, size: row.size, md5: row.md5 ?? `${version.md5}-searchable`, mime: "application/pdf" },
      actorId: ctx.actor.user.id,
    },
    http,
  );
}
