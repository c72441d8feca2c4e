import { Readable } from "node:stream";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import type { DbOrTx } from "@/db";
import { versionPreviews, type FileRow, type FileVersion } from "@/db/schema";
import { getBlobStore } from "@/lib/storage";
import { AppError } from "../errors";
import { contentKind } from "./formats";
import { renderPage, withPdf } from "./pdf-document";

/** The longer side of a rendition: enough to read a page or look at a photo, never the original. */
const RENDITION_SIDE = 1600;
const MAX_INPUT_PIXELS = 50_000_000;
/** The pages a preview page shows as images at most. */
export const MAX_RENDERED_PAGES = 50;

const HEADERS = { "Cache-Control": "private, no-cache, no-transform", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer" };

/**
 * What a preview-only link shows instead of the file: images re-encoded at most 1600 px (WebP,
 * streamed through sharp with the same pixel limit as thumbnails), PDF pages rendered one by one
 * to PNG. The original bytes never leave by this route; other formats have no rendition (403).
 */
export async function serveRendition(file: FileRow, version: FileVersion, page: number): Promise<Response> {
  if (!version.blobId) throw new AppError("not_found", "The content of this file is missing");
  const kind = contentKind(version.mime, file.name);
  if (kind === "image") {
    const source = await getBlobStore().read(version.blobId);
    const resized = sharp({ limitInputPixels: MAX_INPUT_PIXELS }).rotate().resize({ width: RENDITION_SIDE, height: RENDITION_SIDE, fit: "inside", withoutEnlargement: true }).webp({ quality: 82 });
    source.on("error", (error) => resized.destroy(error));
    return new Response(Readable.toWeb(source.pipe(resized)) as ReadableStream<Uint8Array>, { headers: { ...HEADERS, "Content-Type": "image/webp" } });
  }
  if (kind === "pdf") {
    const png = await withPdf(version.blobId, version.size, async (doc) => {
      if (page > doc.numPages) throw new AppError("not_found", `This document has ${doc.numPages} page(s)`);
      return renderPage(doc, page, RENDITION_SIDE);
    });
    return new Response(new Uint8Array(png), { headers: { ...HEADERS, "Content-Type": "image/png", "Content-Length": String(png.length) } });
  }
  throw new AppError("forbidden", "This link only allows previews, and this format has none");
}

/** How many pages a preview page shows for a PDF rendition: the job's count, else the first one. */
export async function renditionPages(db: DbOrTx, versionId: number): Promise<number> {
  const [row] = await db.select({ pageCount: versionPreviews.pageCount }).from(versionPreviews).where(eq(versionPreviews.versionId, versionId));
  return Math.min(Math.max(row?.pageCount ?? 1, 1), MAX_RENDERED_PAGES);
}
