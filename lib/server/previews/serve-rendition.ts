import "server-only";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { getDb, type DbOrTx } from "@/db";
import { versionPreviews, type FileRow, type FileVersion } from "@/db/schema";
import { getBlobStore } from "@/lib/server/blobs/stores";
import { AppError } from "../errors";
import { findRendition } from "./find-rendition";
import { contentKind } from "./formats";
import { PdfPageOutOfRange, PdfTooHeavy, renderPdfPage, REQUEST_WAIT_MS } from "./pdf-document";
import { renderTextScreen } from "./text-rendition";

/** The longer side of a rendition: enough to read a page or look at a photo, never the original. */
export const RENDITION_SIDE = 1600;
const MAX_INPUT_PIXELS = 50_000_000;
/** The pages a preview page shows as images at most. */
export const MAX_RENDERED_PAGES = 50;

const HEADERS = { "Cache-Control": "private, no-cache, no-transform", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer" };

/** Past this size an image is not decoded for a rendition (sharp holds a streamed input whole). */
export const MAX_RENDITION_INPUT_BYTES = 200 * 1024 * 1024;

/**
 * What a caller without the right to the original sees instead of the file (a preview-only or
 * single-download link, a user with read but not download): images re-encoded at most 1600 px
 * (WebP, with the same pixel limit as thumbnails), PDF pages rendered one by one to PNG, a
 * text's first screen as a PNG picture (text-rendition.ts). The original bytes never leave by
 * this route; other formats have no rendition (403).
 *
 * A rendition is bounded in size, so it is made whole before the first byte goes out: content
 * that cannot be decoded (damaged, or not what its type says) is a clean 415 with the contract's
 * error body, never a 500 nor a connection cut mid-answer.
 */
export async function serveRendition(file: FileRow, version: FileVersion, page: number): Promise<Response> {
  const { bytes, type } = await makeRendition(file, version, page);
  return new Response(new Uint8Array(bytes), { headers: { ...HEADERS, "Content-Type": type, "Content-Length": String(bytes.length) } });
}

/** A rendition made whole: WebP for an image, PNG for a document's page or a text's first screen. */
export type Rendition = { bytes: Buffer; type: "image/webp" | "image/png" };

/**
 * The rendition of page `page` of a version (serveRendition's rules), its longer side at most
 * `side` pixels. Also what the public viewer's page images are made of (serve-share-page.ts).
 */
export async function makeRendition(file: FileRow, version: FileVersion, page: number, side = RENDITION_SIDE): Promise<Rendition> {
  if (!version.blobId) throw new AppError("not_found", "The content of this file is missing");
  const kind = contentKind(version.mime, file.name);
  if (kind === "image") {
    return { bytes: await renderImage(version.blobId, version.size, side), type: "image/webp" };
  }
  if (kind === "pdf" || kind === "office") {
    // An office document is paged through the PDF LibreOffice made of it (previews job).
    const pdf = kind === "pdf" ? { blobId: version.blobId, size: version.size } : await findRendition(await getDb(), version);
    if (!pdf) throw new AppError("not_found", "The preview of this document is not ready, or could not be made");
    // Rendered by a PDF worker within its limits; when none is free in time, 423 (being prepared).
    const { png } = await renderPdfPage(pdf, page, side, { waitMs: REQUEST_WAIT_MS }).catch((error: unknown) => {
      if (error instanceof PdfPageOutOfRange) throw new AppError("not_found", error.message);
      if (error instanceof PdfTooHeavy) throw new AppError("unsupported_media_type", error.message);
      throw error instanceof AppError ? error : unrenderable(error);
    });
    return { bytes: png, type: "image/png" };
  }
  if (kind === "text") {
    if (page > 1) throw new AppError("not_found", "The preview of a text is its first screen only");
    const png = await renderTextScreen(version.blobId, version.size).catch((error: unknown) => {
      throw unrenderable(error);
    });
    return { bytes: png, type: "image/png" };
  }
  throw new AppError("forbidden", "This link only allows previews, and this format has none");
}

async function renderImage(blobId: string, size: number, side: number): Promise<Buffer> {
  if (size > MAX_RENDITION_INPUT_BYTES) throw unrenderable(new Error(`${size} bytes is too large for a rendition`));
  const source = await getBlobStore().read(blobId);
  const resized = sharp({ limitInputPixels: MAX_INPUT_PIXELS }).rotate().resize({ width: side, height: side, fit: "inside", withoutEnlargement: true }).webp({ quality: 82 });
  // A failing read of our own store is our fault (500); a failing decode is the file's (415).
  let readError: unknown = null;
  source.on("error", (error) => {
    readError = error;
    resized.destroy(error);
  });
  source.pipe(resized);
  try {
    return await resized.toBuffer();
  } catch (error) {
    source.destroy();
    throw readError ?? unrenderable(error);
  }
}

function unrenderable(cause: unknown): AppError {
  console.warn("[coffre] a rendition could not be made:", cause instanceof Error ? cause.message : cause);
  return new AppError("unsupported_media_type", "This file cannot be shown: it is damaged or not in the format its type says");
}

/** How many pages a preview page shows for a PDF rendition: the job's count, else the first one. */
export async function renditionPages(db: DbOrTx, versionId: number): Promise<number> {
  const [row] = await db.select({ pageCount: versionPreviews.pageCount }).from(versionPreviews).where(eq(versionPreviews.versionId, versionId));
  return Math.min(Math.max(row?.pageCount ?? 1, 1), MAX_RENDERED_PAGES);
}
