import { createReadStream } from "node:fs";
import path from "node:path";
import { getBlobStore } from "@/lib/storage";
import type { StoredBlob } from "@/lib/storage/blob-store";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { commitUpload, type CommitResult } from "../files/commit-upload";
import { ensureTargetFolder } from "./upload-target";
import { chunkDir, claimUpload, dropUpload, releaseUpload } from "./upload-sessions";

const MiB = 1 << 20;

/**
 * Streams the chunks, in order, into one blob (never in memory), checks `fileSize` and `fileHash`
 * and commits the file. Returns null when another request already claimed the upload.
 *
 * Failures follow the contract's rule for chunked uploads: a 4xx is recoverable, so the chunks
 * stay and the client may re-send some (a re-sent chunk completes the set again and retries);
 * a 5xx (507 included) is final, so the upload and its chunks are dropped.
 */
export async function assembleChunks(ctx: AuthedCtx, uploadId: string, input: { mime?: string }): Promise<CommitResult | null> {
  const row = await claimUpload(ctx.db, uploadId, ctx.actor.user.id);
  if (!row) return null;
  const store = getBlobStore();
  let blob: StoredBlob | undefined;
  try {
    const expectedBytes = row.size ?? (row.chunkSize ?? 0) * (row.chunks ?? 0);
    blob = await store.put(readChunks(uploadId, row.chunks ?? 0), { expectedBytes });
    if (row.size !== null && blob.size !== row.size) {
      throw new AppError("invalid_request", `The chunks hold ${blob.size} bytes, fileSize announced ${row.size}`, [{ path: "fileSize", message: "does not match the chunks received" }]);
    }
    if (row.expectedMd5 && blob.md5 !== row.expectedMd5) {
      throw new AppError("invalid_request", `The assembled file has MD5 ${blob.md5}, fileHash announced ${row.expectedMd5}`, [{ path: "fileHash", message: "does not match the chunks received" }]);
    }
    const context = (row.context ?? {}) as { targetPath?: string; mime?: string | null; neverOverwrite?: boolean };
    const folderId = await ensureTargetFolder(ctx, row.folderId, context.targetPath);
    const assembled = blob;
    // From here commitUpload owns the blob: it deletes it itself if the commit fails.
    blob = undefined;
    const result = await commitUpload(ctx, { folderId, name: row.name, blob: assembled, mime: context.mime ?? input.mime, neverOverwrite: context.neverOverwrite });
    await dropUpload(ctx.db, uploadId);
    return result;
  } catch (error) {
    if (blob) await store.delete(blob.id).catch(() => {});
    const final = error instanceof AppError && error.status >= 500;
    await (final ? dropUpload(ctx.db, uploadId) : releaseUpload(ctx.db, uploadId)).catch(() => {});
    throw error;
  }
}

async function* readChunks(uploadId: string, chunks: number): AsyncIterable<Uint8Array> {
  for (let i = 0; i < chunks; i++) {
    yield* createReadStream(path.join(chunkDir(uploadId), String(i)), { highWaterMark: MiB });
  }
}
