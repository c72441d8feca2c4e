import "server-only";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { users } from "@/db/schema";
import { getBlobStore } from "@/lib/server/blobs/stores";
import type { StoredBlob } from "@/lib/storage/blob-store";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import type { BodySource } from "../http/body-source";
import { streamMultipartFile } from "../http/multipart";
import { getPictureOwnerOrThrow } from "./picture-owner";

/** The contract's limit for a profile picture. */
export const MAX_PICTURE_BYTES = 16 * 1024 * 1024;
// A small file can declare an enormous canvas (decompression bomb): refuse past 40 megapixels.
const MAX_INPUT_PIXELS = 40_000_000;
const SIDE = 512;

/**
 * POST /account/picture and POST /user/(id)/picture: multipart part `targetFile`, at most 16 MB.
 * The image is turned upright, cropped to a 512x512 square and stored as WebP (without the
 * metadata of the original, such as its GPS position); the previous picture is deleted.
 */
export async function updatePicture(ctx: AuthedCtx, userId: number, source: BodySource): Promise<void> {
  // Rights first: a refused caller must not get to send 16 MB.
  const user = await getPictureOwnerOrThrow(ctx, userId, "write");
  const store = getBlobStore();
  const { result: blob } = await streamMultipartFile(source, {
    field: "targetFile",
    maxFileBytes: MAX_PICTURE_BYTES,
    onFile: ({ stream }) => storeNormalisedPicture(stream),
    discard: (stored) => store.delete(stored.id),
  });

  let previous: string | null;
  try {
    previous = await ctx.db.transaction(async (tx) => {
      const [row] = await tx.select({ blobId: users.pictureBlobId }).from(users).where(eq(users.id, user.id)).for("update");
      await tx.update(users).set({ pictureBlobId: blob.id }).where(eq(users.id, user.id));
      await writeLog(tx, { actor: ctx.actor.user, request: ctx.request }, { type: "ADMLLOG_UPDATE", message: `Changed the picture of ${user.login}`, objectType: "user", objectId: user.id, object: user.login });
      return row?.blobId ?? null;
    });
  } catch (error) {
    await store.delete(blob.id).catch(() => {});
    throw error;
  }
  // After the commit: a failed delete leaves an orphan blob for garbage collection, never a dangling reference.
  if (previous) await store.delete(previous).catch(() => {});
}

async function storeNormalisedPicture(input: Readable): Promise<StoredBlob> {
  const image = sharp({ limitInputPixels: MAX_INPUT_PIXELS }).rotate().resize(SIDE, SIDE, { fit: "cover" }).webp({ quality: 85 });
  let unreadable = false;
  // sharp's decoding errors carry no `code`, unlike system and stream errors.
  image.once("error", (error) => {
    unreadable = !(error instanceof AppError) && !(error as NodeJS.ErrnoException).code;
  });
  // An upload cut short (over the limit, client gone, even before this ran) fails the image, hence
  // the blob write: pipeline, unlike pipe, sees a stream that already failed.
  pipeline(input, image).catch(() => {});
  try {
    return await getBlobStore().put(image);
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (unreadable) throw new AppError("invalid_request", "The file is not an image that can be read (JPEG, PNG, WebP, GIF, AVIF, TIFF or SVG)");
    throw error;
  }
}
