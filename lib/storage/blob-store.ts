import "server-only";
import type { Readable } from "node:stream";

/** `head`: the first bytes (up to HEAD_BYTES), when the store kept them while writing, so the type can be sniffed without reading the blob back. */
export type StoredBlob = { id: string; size: number; md5: string; head?: Uint8Array };

/** How many first bytes `put` keeps in `head`: what content sniffing reads (8 KiB). */
export const HEAD_BYTES = 8 * 1024;
export type ByteRange = { start: number; end: number };

/**
 * Where file content lives (never in the database). Writes go to a temporary name, are flushed,
 * then renamed, so a crash never leaves a half blob visible; MD5 and size come from the same pass.
 */
export interface BlobStore {
  /** `expectedBytes` (a declared length) only tunes how the MD5 is computed; the bytes decide the size. */
  put(source: Readable | AsyncIterable<Uint8Array>, options?: { maxBytes?: number; signal?: AbortSignal; expectedBytes?: number }): Promise<StoredBlob>;
  /** Stream of the blob, or of the inclusive byte range. */
  read(id: string, range?: ByteRange): Promise<Readable>;
  size(id: string): Promise<number | null>;
  /** Size and last write of a blob, or null when it does not exist (garbage collection's grace period). */
  stat(id: string): Promise<{ size: number; modifiedAt: Date } | null>;
  delete(id: string): Promise<void>;
  /** Absolute path of a blob for stores on local disk (fast paths such as sendfile), else null. */
  localPath(id: string): string | null;
  /** The same path below the store's root folder (`ab/cd/<id>`), for a web server that serves that folder (X-Accel-Redirect), else null. */
  relativePath(id: string): string | null;
  /** A folder for work in progress (chunks, tus uploads) on the same filesystem as the blobs. */
  readonly tempDir: string;
  /** Moves a finished temporary file into the store, hashing it on the way if needed. */
  adoptFile(path: string, known?: { md5?: string; size?: number }): Promise<StoredBlob>;
  /** Every blob id, for garbage collection. */
  list(): AsyncIterable<string>;
  /** Free bytes where blobs are written, or null when unknown. */
  freeBytes(): Promise<number | null>;
  ping(): Promise<void>;
  /** Writes begun before `before` and never finished that the store itself keeps (S3 multipart uploads), aborted; how many. */
  abortAbandonedWrites?(before: Date): Promise<number>;
}
