import "server-only";
import fs from "node:fs/promises";
import type { StoredBlob } from "@/lib/storage/blob-store";
import { getBlobStore, storageError } from "../blobs/stores";
import { hashFile } from "@/lib/storage/md5";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { commitUpload, type CommitResult } from "../files/commit-upload";
import { takeChunkMd5 } from "./chunk-hashes";
import { ensureTargetFolder } from "./upload-target";
import { chunkDataFile, claimUpload, dropUpload, releaseUpload } from "./upload-sessions";

/**
 * Turns the upload's data file, where every chunk was written at its offset, into a blob (no
 * copy), after checking `fileSize` and `fileHash`, and commits the file. Returns null when another request already claimed the upload.
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
    // Every chunk is at its place in one file: its MD5 (computed as the chunks came, or one read), then it becomes the blob as it is.
    const data = chunkDataFile(uploadId);
    const { md5, size } = await hashOf(uploadId, data).catch((error) => {
      throw storageError(error);
    });
    if (row.size !== null && size !== row.size) {
      throw new AppError("invalid_request", `The chunks hold ${size} bytes, fileSize announced ${row.size}`, [{ path: "fileSize", message: "does not match the chunks received" }]);
    }
    if (row.expectedMd5 && md5 !== row.expectedMd5) {
      throw new AppError("invalid_request", `The assembled file has MD5 ${md5}, fileHash announced ${row.expectedMd5}`, [{ path: "fileHash", message: "does not match the chunks received" }]);
    }
    blob = await store.adoptFile(data, { md5, size });
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

/** The running MD5 when the chunks were written in order by this process; else one read of the file. */
async function hashOf(uploadId: string, data: string): Promise<{ md5: string; size: number }> {
  const stat = await fs.stat(data, { bigint: true });
  const md5 = await takeChunkMd5(uploadId, { size: Number(stat.size), mtimeNs: stat.mtimeNs });
  return md5 ? { md5, size: Number(stat.size) } : hashFile(data);
}
