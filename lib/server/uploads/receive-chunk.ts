import "server-only";
import { randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { UploadFields } from "@/lib/contracts/uploads";
import { storageError } from "../blobs/stores";
import type { Md5 } from "@/lib/storage/md5";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import type { CommitResult } from "../files/commit-upload";
import { assembleChunks } from "./assemble-chunks";
import { beginChunkWrite, endChunkWrite } from "./chunk-hashes";
import { reserveUpload } from "./reserve-upload";
import { assertUploadAllowed } from "./upload-target";
import { chunkDataFile, chunkDir, chunkedUploadId, dropUpload, incomingDir } from "./upload-sessions";

/**
 * A chunk received: at its offset in its upload's data file already (its fields came before it,
 * the usual order), or in a work file until the fields that follow it name its upload.
 */
export type ChunkPart = { path: string; size: number } | { placedIn: string; size: number };

export type ChunkOutcome = { kind: "received" } | { kind: "missing"; missing: number[] } | { kind: "committed"; result: CommitResult };

export type ChunkRequest = {
  folderId: number;
  targetPath?: string;
  name: string;
  mime?: string;
  fields: UploadFields & { chunk: number; chunks: number };
  /** Drop-link deposits: never a new version, and chunks kept apart per visitor (`scope`). */
  neverOverwrite?: boolean;
  scope?: string;
  /** The drop link of a deposit: its open deposits are capped and expire sooner. */
  ulinkId?: number;
};

const MiB = 1 << 20;

/**
 * Streams one chunk to a work file; it is filed under its upload once the form's fields are known.
 * With `maxBytes` (the size the chunk must have), one byte more stops the transfer with a 413.
 */
export async function receiveChunkPart(stream: Readable, maxBytes?: number): Promise<ChunkPart> {
  await fs.mkdir(incomingDir(), { recursive: true });
  const file = path.join(incomingDir(), `${randomUUID()}.part`);
  const out = createWriteStream(file, { highWaterMark: MiB });
  try {
    if (maxBytes === undefined) await pipeline(stream, out);
    else await pipeline(stream, capBytes(maxBytes, () => new AppError("payload_too_large", `The chunk is larger than the ${maxBytes} bytes it must have`)), out);
  } catch (error) {
    await fs.rm(file, { force: true });
    throw error instanceof AppError ? error : storageError(error);
  }
  return { path: file, size: out.bytesWritten };
}

/**
 * Streams a chunk straight to its offset in the upload's data file: each byte is written once,
 * and the last chunk needs no reassembly. Durable (fdatasync) before it returns; it counts only
 * once markChunk files it. With `maxBytes`, one byte more stops the transfer with a 413 before
 * anything is written past the chunk's own place.
 */
export async function writeChunkAt(uploadId: string, offset: number, stream: Readable, maxBytes = Number.POSITIVE_INFINITY, totalBytes?: number): Promise<number> {
  await fs.mkdir(chunkDir(uploadId), { recursive: true });
  const handle = await fs.open(chunkDataFile(uploadId), fs.constants.O_RDWR | fs.constants.O_CREAT);
  let written = 0;
  let md5: Md5 | null = null;
  let begun = false;
  let done: { written: number; offset: number; mtimeNs: bigint } | null = null;
  let refusal: AppError | undefined;
  try {
    const before = await handle.stat({ bigint: true });
    // In order (the usual case), the bytes are hashed as they are written: no re-read at the end.
    begun = true;
    md5 = beginChunkWrite(uploadId, offset, { size: Number(before.size), mtimeNs: before.mtimeNs }, totalBytes);
    const meter = new Transform({
      highWaterMark: MiB,
      transform(chunk: Buffer, _encoding, next) {
        // Refused before a byte past the chunk's own place is written.
        if (written + chunk.length > maxBytes) {
          // Kept: the pipeline may report the source's own error (destroyed with it) instead.
          refusal = new AppError("payload_too_large", `The chunk is larger than the ${maxBytes} bytes it must have`);
          return next(refusal);
        }
        written += chunk.length;
        // The worker hasher makes us wait only when it is behind (bounded memory).
        const behind = md5?.update(chunk);
        if (behind) behind.then(() => next(null, chunk), next);
        else next(null, chunk);
      },
    });
    // A write stream at the offset batches the socket's small reads into large writes (writev),
    // and writes while the next bytes arrive: one awaited write per 64 KiB read was slower.
    // Its own descriptor (a stream closes the one it writes through, even on error); the handle's
    // datasync below makes its bytes durable all the same (same file).
    await pipeline(stream, meter, createWriteStream(chunkDataFile(uploadId), { flags: "r+", start: offset, highWaterMark: MiB }));
    await handle.datasync();
    if (md5) done = { written, offset, mtimeNs: (await handle.stat({ bigint: true })).mtimeNs };
    return written;
  } catch (error) {
    throw refusal ?? (error instanceof AppError ? error : storageError(error));
  } finally {
    if (begun) await endChunkWrite(uploadId, md5, done);
    await handle.close();
  }
}

/** The chunk's place in the data file: every chunk but the last has `chunksSize` bytes. */
export const chunkOffset = (fields: { chunk: number; chunksSize?: number }) => fields.chunk * (fields.chunksSize ?? 0);

/** A pass-through that fails with `error()` once more than `max` bytes went through. */
export function capBytes(max: number, error: () => AppError): Transform {
  let seen = 0;
  return new Transform({
    highWaterMark: MiB,
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(seen > max ? error() : null, seen > max ? undefined : chunk);
    },
  });
}

/**
 * The chunked protocol's declared layout, checked before anything is stored: `fileSize` (the
 * total) is required, so the whole upload can be reserved against the quotas when it opens;
 * with more than one chunk `chunksSize` is required too, and every chunk but the last has that
 * size, the last the rest (1 to `chunksSize` bytes). Returns the size chunk `chunk` must have.
 */
export function expectedChunkBytes(fields: { chunk: number; chunks: number; chunksSize?: number; fileSize?: number }): number {
  const { chunk, chunks, chunksSize, fileSize } = fields;
  if (fileSize === undefined) {
    throw new AppError("invalid_request", "A chunked upload must declare its total size in fileSize", [{ path: "fileSize", message: "required with chunk and chunks" }]);
  }
  if (chunks === 1) {
    if (chunksSize !== undefined && fileSize > chunksSize) throw inconsistent();
    return fileSize;
  }
  if (chunksSize === undefined) {
    throw new AppError("invalid_request", "A chunked upload of several chunks must declare chunksSize", [{ path: "chunksSize", message: "required when chunks > 1" }]);
  }
  if (fileSize <= chunksSize * (chunks - 1) || fileSize > chunksSize * chunks) throw inconsistent();
  return chunk === chunks - 1 ? fileSize - chunksSize * (chunks - 1) : chunksSize;
}

const inconsistent = () => new AppError("invalid_request", "fileSize does not match chunks and chunksSize", [{ path: "fileSize", message: "inconsistent with chunks × chunksSize" }]);

/** The session key of a chunked request: what its requests repeat (upload-sessions.ts). */
export function chunkedUploadIdOf(ctx: AuthedCtx, input: ChunkRequest): string {
  const { fields } = input;
  return chunkedUploadId(ctx.actor.user, { folderId: input.folderId, targetPath: input.targetPath ?? "", name: input.name, fileSize: fields.fileSize, chunks: fields.chunks, scope: input.scope });
}

/**
 * Opens the chunked upload (or touches it when a chunk of it came before): rights as for any
 * upload, then its whole `fileSize` reserved against the quotas, within the open-upload caps.
 */
export async function openChunkedUpload(ctx: AuthedCtx, input: ChunkRequest): Promise<{ uploadId: string; created: boolean }> {
  const { fields } = input;
  expectedChunkBytes(fields);
  const uploadId = chunkedUploadIdOf(ctx, input);
  // No size here: an open session's own reservation would be counted twice; reserveUpload checks.
  const { folder } = await assertUploadAllowed(ctx, input);
  const { created } = await reserveUpload(
    ctx,
    {
      id: uploadId,
      kind: "chunked",
      userId: ctx.actor.user.id,
      folderId: input.folderId,
      name: input.name,
      size: fields.fileSize!,
      chunks: fields.chunks,
      chunkSize: fields.chunksSize,
      expectedMd5: fields.fileHash,
      ulinkId: input.ulinkId ?? null,
      context: { targetPath: input.targetPath ?? "", mime: input.mime ?? null, neverOverwrite: input.neverOverwrite ?? false },
    },
    folder,
  );
  return { uploadId, created };
}

/**
 * Undoes an opening whose first chunk failed: a session without any chunk filed goes, with its
 * reservation, instead of holding quota until it expires. One that has chunks (a concurrent
 * request filed one) stays.
 */
export async function dropIfEmpty(ctx: AuthedCtx, uploadId: string, chunks: number) {
  if ((await findMissingChunks(uploadId, chunks)).length < chunks) return;
  await dropUpload(ctx.db, uploadId).catch(() => {});
}

/**
 * One request of the chunked protocol (rest-interface: Upload). The first chunk filed opens the
 * upload and reserves its `fileSize` (openChunkedUpload). Chunks may come in any order and
 * again (a re-sent chunk replaces the first); the request that completes the set, whatever its
 * index, assembles and commits the file (201). Otherwise the answer is `OK`, or the missing
 * chunks when `report` is set or when the last index arrives with holes left.
 */
export async function receiveChunk(ctx: AuthedCtx, input: ChunkRequest, part: ChunkPart | undefined): Promise<ChunkOutcome> {
  const { fields } = input;
  const expected = expectedChunkBytes(fields);
  const uploadId = chunkedUploadIdOf(ctx, input);
  if (part) assertChunkSize(fields.chunk, expected, part.size);
  if (part) {
    // Opened by this very request before its bytes (the chunk is at its place already): checked
    // and reserved moments ago, so not again; otherwise the chunk's upload is opened now.
    if (!("placedIn" in part && part.placedIn === uploadId)) await openChunkedUpload(ctx, input);
    await placeChunk(uploadId, fields, part);
    // The marker makes the chunk count, once its bytes are durable at their place.
    await fs.writeFile(path.join(chunkDir(uploadId), String(fields.chunk)), "");
  }

  const missing = await findMissingChunks(uploadId, fields.chunks);
  if (missing.length === 0) {
    const result = await assembleChunks(ctx, uploadId, input);
    // Null: another request completed the set at the same moment and is committing it.
    return result ? { kind: "committed", result } : { kind: "received" };
  }
  if (fields.report || fields.chunk === fields.chunks - 1) return { kind: "missing", missing };
  return { kind: "received" };
}

/** Copies a chunk that is not at its place yet (received before its fields, or under other fields). */
async function placeChunk(uploadId: string, fields: { chunk: number; chunksSize?: number; fileSize?: number }, part: ChunkPart) {
  if ("placedIn" in part) {
    if (part.placedIn === uploadId) return;
    // Fields that key the upload came after the file part: the bytes move to the right upload.
    const start = chunkOffset(fields);
    const source = createReadStream(chunkDataFile(part.placedIn), { start, end: start + part.size - 1, highWaterMark: MiB });
    await writeChunkAt(uploadId, start, source, undefined, fields.fileSize);
    return;
  }
  try {
    await writeChunkAt(uploadId, chunkOffset(fields), createReadStream(part.path, { highWaterMark: MiB }), undefined, fields.fileSize);
  } finally {
    await fs.rm(part.path, { force: true });
  }
}

export async function findMissingChunks(uploadId: string, chunks: number): Promise<number[]> {
  let names: string[] = [];
  try {
    names = await fs.readdir(chunkDir(uploadId));
  } catch {}
  const present = new Set(names.filter((n) => /^\d+$/.test(n)).map(Number));
  const missing: number[] = [];
  for (let i = 0; i < chunks; i++) if (!present.has(i)) missing.push(i);
  return missing;
}

/** Every chunk but the last has `chunksSize` bytes; the last one the rest of `fileSize`. */
function assertChunkSize(chunk: number, expected: number, size: number) {
  if (size > expected) throw new AppError("payload_too_large", `Chunk ${chunk} has ${size} bytes, expected ${expected}`, [{ path: "targetFile", message: `expected ${expected} bytes` }]);
  if (size !== expected) throw new AppError("invalid_request", `Chunk ${chunk} has ${size} bytes, expected ${expected}`, [{ path: "targetFile", message: `expected ${expected} bytes` }]);
}
