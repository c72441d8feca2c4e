import "server-only";
import { eq } from "drizzle-orm";
import { versionPreviews } from "@/db/schema";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { getFileOrThrow } from "../files/get-file";
import { contentKind } from "./formats";
import { MAX_PDF_BYTES, PdfTooHeavy, PdfTooLarge, readPdfPageCount, REQUEST_WAIT_MS } from "./pdf-document";

/**
 * GET /file/(fileId)/infos: `{length}`, the number of pages (read right). Only PDFs here: Office
 * documents would need LibreOffice, not installed, and other formats have no pages (415 both).
 * The count the preview job stored is used; before the job has run it is read from the document
 * at once by a PDF worker (pdf.js reads only the ranges it needs), as a page count should not
 * wait on the jobs' queue; 423 when every worker stays busy.
 */
export async function readDocumentInfos(ctx: AuthedCtx, versionId: number): Promise<{ length: number }> {
  const { file, version } = await getFileOrThrow(ctx.db, ctx.actor.user, versionId, "read");
  const kind = contentKind(version.mime, file.name);
  if (kind === "office") throw new AppError("unsupported_media_type", "Page counts of Office documents need LibreOffice, which is not installed on this platform");
  if (kind !== "pdf") throw new AppError("unsupported_media_type", "Only Office and PDF documents have document information");
  const [preview] = await ctx.db.select({ pageCount: versionPreviews.pageCount }).from(versionPreviews).where(eq(versionPreviews.versionId, version.id));
  if (preview?.pageCount != null) return { length: preview.pageCount };
  if (!version.blobId) throw new AppError("not_found", "The content of this file is missing");
  try {
    return { length: await readPdfPageCount({ blobId: version.blobId, size: version.size }, { waitMs: REQUEST_WAIT_MS }) };
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof PdfTooHeavy) throw new AppError("unsupported_media_type", error.message);
    if (error instanceof PdfTooLarge) throw new AppError("unsupported_media_type", `This PDF is too large to be read here (over ${MAX_PDF_BYTES} bytes)`);
    throw new AppError("unsupported_media_type", "This file is not a readable PDF document", { reason: error instanceof Error ? error.message : String(error) });
  }
}
