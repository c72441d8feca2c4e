import "server-only";
import type { Readable } from "node:stream";
import sharp, { type OutputInfo } from "sharp";
import type { StoredLogo } from "@/lib/contracts/config";
import { getBlobStore } from "@/lib/server/blobs/stores";
import { AppError } from "../errors";

// A small file can declare an enormous canvas (decompression bomb), as for account pictures.
const MAX_INPUT_PIXELS = 40_000_000;
/** Largest side of a stored logo: pages show it about 36 px high, mails 40 px; room for HiDPI screens. */
export const LOGO_MAX_SIDE = 512;

/**
 * Decodes the upload with sharp and stores a new PNG (PNG: every mail client shows it, and it
 * keeps transparency), at most 512 px a side, without the original's metadata. The stored bytes
 * are always sharp's own encoding, never the upload's, so an SVG with script or a polyglot file
 * can never be served back. Same decoding as the account pictures (update-picture.ts).
 */
export async function storeNormalisedLogo(input: Readable): Promise<StoredLogo> {
  const image = sharp({ limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    .resize(LOGO_MAX_SIDE, LOGO_MAX_SIDE, { fit: "inside", withoutEnlargement: true })
    .png({ compressionLevel: 9 });
  let unreadable = false;
  let size: { width: number; height: number } | undefined;
  image.once("info", (info: OutputInfo) => {
    size = { width: info.width, height: info.height };
  });
  // sharp's decoding errors carry no `code`, unlike system and stream errors.
  image.once("error", (error) => {
    unreadable = !(error instanceof AppError) && !(error as NodeJS.ErrnoException).code;
  });
  // An upload cut short (over the limit, client gone) fails the image, hence the blob write.
  input.once("error", (error) => image.destroy(error));
  input.pipe(image);
  let blobId: string;
  try {
    blobId = (await getBlobStore().put(image)).id;
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (unreadable) throw new AppError("invalid_request", "The file is not an image that can be read (PNG, JPEG, WebP, GIF, AVIF, TIFF or SVG)");
    throw error;
  }
  if (!size) {
    await getBlobStore().delete(blobId).catch(() => {});
    throw new AppError("invalid_request", "The file is not an image that can be read");
  }
  return { blob_id: blobId, mime: "image/png", ...size };
}
