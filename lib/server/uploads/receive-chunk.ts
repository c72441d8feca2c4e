import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { sql } from "drizzle-orm";
import { uploads } from "@/db/schema";
import type { UploadFields } from "@/lib/contracts/uploads";
import { storageError } from "@/lib/storage/local-store";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import type { CommitResult } from "../files/commit-upload";
import { assembleChunks } from "./assemble-chunks";
import { assertUploadAllowed } from "./upload-target";
import { chunkDir, chunkedUploadId, incomingDir } from "./upload-sessions";

/** A chunk received into the work area, not yet filed under its upload. */
export type ChunkPart = { path: string; size: number };

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
};

const MiB = 1 << 20;

/** Streams one chunk to a work file; it is filed under its upload once the form's fields are known. */
export async function receiveChunkPart(stream: Readable): Promise<ChunkPart> {
  await fs.mkdir(incomingDir(), { recursive: true });
  const file = path.join(incomingDir(), `${randomUUID()}.part`);
  const out = createWriteStream(file, { highWaterMark: MiB });
  try {
    await pipeline(stream, out);
  } catch (error) {
    await fs.rm(file, { force: true });
    throw storageError(error);
  }
  return { path: file, size: out.bytesWritten };
}

/**
 * One request of the chunked protocol (rest-interface: Upload). Chunks may come in any order and
 * again (a re-sent chunk replaces the first); the request that completes the set, whatever its
 * index, assembles and commits the file (201). Otherwise the answer is `OK`, or the missing
 * chunks when `report` is set or when the last index arrives with holes left.
 */
export async function receiveChunk(ctx: AuthedCtx, input: ChunkRequest, part: ChunkPart | undefined): Promise<ChunkOutcome> {
  const { fields } = input;
  const uploadId = chunkedUploadId(ctx.actor.user, { folderId: input.folderId, targetPath: input.targetPath ?? "", name: input.name, fileSize: fields.fileSize, chunks: fields.chunks, scope: input.scope });
  if (part) assertChunkSize(fields, part.size);
  await assertUploadAllowed(ctx, input, fields.fileSize);
  if (part) {
    await ctx.db
      .insert(uploads)
      .values({
        id: uploadId,
        kind: "chunked",
        userId: ctx.actor.user.id,
        folderId: input.folderId,
        name: input.name,
        size: fields.fileSize,
        chunks: fields.chunks,
        chunkSize: fields.chunksSize,
        expectedMd5: fields.fileHash,
        context: { targetPath: input.targetPath ?? "", mime: input.mime ?? null, neverOverwrite: input.neverOverwrite ?? false },
      })
      .onConflictDoUpdate({ target: uploads.id, set: { updatedAt: sql`now()` } });
    await fs.mkdir(chunkDir(uploadId), { recursive: true });
    // Atomic: a reader sees the old chunk or the new one, never half of either.
    await fs.rename(part.path, path.join(chunkDir(uploadId), String(fields.chunk)));
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
function assertChunkSize(fields: ChunkRequest["fields"], size: number) {
  const { chunk, chunks, chunksSize, fileSize } = fields;
  if (chunksSize === undefined) return;
  const isLast = chunk === chunks - 1;
  const expected = isLast ? (fileSize === undefined ? undefined : fileSize - chunksSize * (chunks - 1)) : chunksSize;
  if (expected === undefined) {
    if (size > chunksSize) throw chunkSizeError(chunk, size, `at most ${chunksSize}`);
    return;
  }
  if (expected < 0 || (isLast && expected > chunksSize)) {
    throw new AppError("invalid_request", "fileSize does not match chunks and chunksSize", [{ path: "fileSize", message: "inconsistent with chunks × chunksSize" }]);
  }
  if (size !== expected) throw chunkSizeError(chunk, size, String(expected));
}

const chunkSizeError = (chunk: number, size: number, expected: string) =>
  new AppError("invalid_request", `Chunk ${chunk} has ${size} bytes, expected ${expected}`, [{ path: "targetFile", message: `expected ${expected} bytes` }]);
