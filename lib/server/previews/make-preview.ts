import "server-only";
import type { Readable } from "node:stream";
import { and, eq, inArray } from "drizzle-orm";
import sharp from "sharp";
import type { Db } from "@/db";
import { blobs, fileVersions, files, versionPreviews, versionRenditions } from "@/db/schema";
import { getBlobStore } from "@/lib/server/blobs/stores";
import type { StoredBlob } from "@/lib/storage/blob-store";
import { MissingTool } from "./converter";
import { fileTypeOf } from "./file-type";
import { contentKind, FILE_TYPE } from "./formats";
import { officeToPdf } from "./office-preview";
import { sameTime } from "./same-time";
import { renderPdfPage, type PdfSource } from "./pdf-document";
import { videoPreview } from "./video-preview";

/** A thumbnail fits in this square. */
export const THUMB_SIDE = 256;
export const THUMB_MIME = "image/webp";
// A small file can declare an enormous canvas (decompression bomb): past 50 megapixels, no thumbnail.
const MAX_INPUT_PIXELS = 50_000_000;

/** `rendition`: what a converter made for viewing (an office document's PDF, a web-playable video), stored with the outcome. */
type Rendition = { kind: "pdf" | "video"; blob: StoredBlob; mime: string };
type Outcome = { state: "available" | "failed" | "none"; fileType?: string; thumb?: Readable | Buffer; pageCount?: number; error?: string; rendition?: Rendition };

/** Job "previews.make" ({versionId}). */
export async function makePreviewJob(db: Db, payload: Record<string, unknown>): Promise<void> {
  await makePreview(db, Number(payload.versionId));
}

/**
 * Makes the thumbnail (and, for PDFs, the page count) of one version: pending → preparing →
 * available, failed (the content could not be read; the reason is kept) or none (a format without
 * thumbnails here). A version gone, or already done by a reuse, is left alone. Failures of the
 * content are final; failures of the platform (database, disk) throw, so the job is retried.
 */
export async function makePreview(db: Db, versionId: number): Promise<void> {
  // The claim's time marks this run: content replaced meanwhile resets the row, and then this
  // run's outcome (of the old content) must not land.
  const claimedAt = new Date();
  const [claimed] = await db
    .update(versionPreviews)
    .set({ state: "preparing", updatedAt: claimedAt })
    .where(and(eq(versionPreviews.versionId, versionId), inArray(versionPreviews.state, ["pending", "preparing"])))
    .returning();
  if (!claimed) return;
  const [row] = await db
    .select({ blobId: fileVersions.blobId, size: fileVersions.size, mime: fileVersions.mime, name: files.name })
    .from(fileVersions)
    .innerJoin(files, eq(files.id, fileVersions.fileId))
    .where(eq(fileVersions.id, versionId));
  if (!row?.blobId) {
    await finish(db, versionId, claimedAt, { state: "failed", error: "The content of this version is missing" });
    return;
  }
  const outcome = await thumbnailOf(row.blobId, row.size, contentKind(row.mime, row.name), row.name);
  await finish(db, versionId, claimedAt, outcome);
}

async function thumbnailOf(blobId: string, size: number, kind: ReturnType<typeof contentKind>, name: string): Promise<Outcome> {
  const fileType = FILE_TYPE[kind] ?? fileTypeOf(null, name);
  try {
    switch (kind) {
      case "image":
        return { state: "available", fileType, thumb: await getBlobStore().read(blobId) };
      case "pdf":
        return { state: "available", fileType, ...(await firstPage({ blobId, size })) };
      case "video": {
        // ffmpeg (in the converter sandbox): a poster frame, and a web-playable copy when browsers cannot play the original.
        const { poster, rendition } = await videoPreview(blobId, size, name);
        return { state: "available", fileType: "video", thumb: poster, ...(rendition ? { rendition: { kind: "video", blob: rendition, mime: "video/mp4" } } : {}) };
      }
      case "office": {
        // LibreOffice (in the converter sandbox) makes a PDF; the PDF path gives the page count and the thumbnail.
        const pdf = await officeToPdf(blobId, size, name);
        const outcome = await firstPage({ blobId: pdf.id, size: pdf.size }).catch(async (error: unknown) => {
          await getBlobStore().delete(pdf.id).catch(() => {});
          throw error;
        });
        return { state: "available", fileType: "document", ...outcome, rendition: { kind: "pdf", blob: pdf, mime: "application/pdf" } };
      }
      default:
        return { state: "none" };
    }
  } catch (error) {
    // A converter that is not installed: no preview of this format here, and the reason names it.
    if (error instanceof MissingTool) return { state: "none", fileType, error: error.message };
    return { state: "failed", fileType, error: reasonOf(error) };
  }
}

/**
 * The page count and the first page, twice the thumbnail's size so that the downscale stays
 * sharp, from a PDF worker: a document over the worker's limits fails here, with the reason.
 */
async function firstPage(pdf: PdfSource): Promise<{ pageCount: number; thumb: Buffer }> {
  const { pageCount, png } = await renderPdfPage(pdf, 1, THUMB_SIDE * 2);
  return { pageCount, thumb: png };
}

/** Stores the thumbnail (a new blob, registered so that garbage collection knows it) and the outcome. */
async function finish(db: Db, versionId: number, claimedAt: Date, outcome: Outcome): Promise<void> {
  let result = outcome;
  let stored: { id: string; size: number; md5: string } | null = null;
  if (outcome.thumb) {
    try {
      stored = await getBlobStore().put(toThumbnail(outcome.thumb));
    } catch (error) {
      if (isPlatformFailure(error)) throw error;
      result = { state: "failed", fileType: outcome.fileType, pageCount: outcome.pageCount, error: reasonOf(error) };
    }
  }
  try {
    const landed = await db.transaction(async (tx) => {
      const updated = await tx
        .update(versionPreviews)
        .set({
          state: result.state,
          fileType: result.fileType ?? null,
          thumbBlobId: stored?.id ?? null,
          thumbMime: stored ? THUMB_MIME : null,
          pageCount: result.pageCount ?? null,
          error: result.error?.slice(0, 500) ?? null,
          updatedAt: new Date(),
        })
        .where(and(eq(versionPreviews.versionId, versionId), sameTime(versionPreviews.updatedAt, claimedAt)))
        .returning({ versionId: versionPreviews.versionId });
      if (stored && updated.length > 0) await tx.insert(blobs).values(stored).onConflictDoNothing();
      const rendition = result.rendition;
      if (rendition && updated.length > 0) {
        const { id, size, md5 } = rendition.blob;
        await tx.insert(blobs).values({ id, size, md5 }).onConflictDoNothing();
        const values = { kind: rendition.kind, blobId: id, mime: rendition.mime, size, createdAt: new Date() };
        await tx.insert(versionRenditions).values({ versionId, ...values }).onConflictDoUpdate({ target: versionRenditions.versionId, set: values });
      }
      return updated.length > 0;
    });
    if (stored && !landed) await getBlobStore().delete(stored.id).catch(() => {});
    if (result.rendition && !landed) await getBlobStore().delete(result.rendition.blob.id).catch(() => {});
  } catch (error) {
    if (stored) await getBlobStore().delete(stored.id).catch(() => {});
    if (result.rendition) await getBlobStore().delete(result.rendition.blob.id).catch(() => {});
    throw error;
  }
}

/** Streams the source through sharp: upright, fitted inside the square, WebP without metadata. */
function toThumbnail(source: Readable | Buffer): Readable {
  const image = sharp({ limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" })
    .rotate()
    .resize(THUMB_SIDE, THUMB_SIDE, { fit: "inside", withoutEnlargement: true })
    .webp({ quality: 80 });
  if (Buffer.isBuffer(source)) {
    image.end(source);
  } else {
    source.once("error", (error) => image.destroy(error));
    source.pipe(image);
  }
  return image;
}

/** A full or failing disk is worth a retry (the job's backoff); anything else is the content's fault. */
function isPlatformFailure(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === "ENOSPC" || code === "EDQUOT" || code === "EIO" || code === "EMFILE" || code === "ENFILE";
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
