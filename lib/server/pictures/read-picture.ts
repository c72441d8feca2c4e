import "server-only";
import { Readable } from "node:stream";
import { getBlobStore } from "@/lib/server/blobs/stores";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { getPictureOwnerOrThrow } from "./picture-owner";

/**
 * GET /account/picture and GET /user/(id)/picture: streams the stored WebP. A new upload gets
 * a new blob, so the blob id is a strong ETag.
 */
export async function readPicture(ctx: AuthedCtx, userId: number, req: Request): Promise<Response> {
  const user = await getPictureOwnerOrThrow(ctx, userId, "read");
  const blobId = user.pictureBlobId;
  if (!blobId) throw new AppError("not_found", "This user has no picture");
  const etag = `"${blobId}"`;
  const headers = { "Content-Type": "image/webp", "Cache-Control": "private, no-cache", ETag: etag };
  if (req.headers.get("if-none-match")?.split(",").some((t) => t.trim() === etag)) {
    return new Response(null, { status: 304, headers });
  }
  const store = getBlobStore();
  const size = await store.size(blobId);
  if (size === null) throw new AppError("not_found", "This user has no picture");
  const stream = await store.read(blobId);
  return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, { headers: { ...headers, "Content-Length": String(size) } });
}
