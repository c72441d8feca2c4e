import "server-only";
import { PassThrough, Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createHash } from "node:crypto";
import { archiveCompression, compressor, decompressor, type Compression } from "@/lib/storage/archive-store";
import type { StoredBlob } from "@/lib/storage/blob-store";
import { getArchiveStore, getBlobStore } from "@/lib/server/blobs/stores";

/** A live blob copied to the cold tier through the configured compression. */
export async function copyToArchive(liveBlobId: string): Promise<{ blob: StoredBlob; compression: Compression }> {
  const compression = archiveCompression();
  const source = await getBlobStore().read(liveBlobId);
  const squeeze = compressor(compression);
  const stored = await getArchiveStore().put(squeeze ? source.pipe(squeeze) : source);
  return { blob: stored, compression };
}

/** The original bytes of an archived blob, decompressed on the way. */
export async function readArchived(archiveBlobId: string, compression: string): Promise<Readable> {
  const stored = await getArchiveStore().read(archiveBlobId);
  const expand = decompressor(compression);
  if (!expand) return stored;
  const out = new PassThrough();
  pipeline(stored, expand, out).catch((error) => out.destroy(error));
  return out;
}

/**
 * An archived blob written back to the live store, checked against the MD5 and size it had when
 * it was archived: a restore is byte-identical or it fails (and the job tries again).
 */
export async function restoreToLive(archiveBlobId: string, compression: string, expected: { md5: string; size: number }): Promise<StoredBlob> {
  const stored = await getArchiveStore().read(archiveBlobId);
  const expand = decompressor(compression);
  const live = await getBlobStore().put(expand ? stored.pipe(expand) : stored, { expectedBytes: expected.size });
  if (live.md5 !== expected.md5 || live.size !== expected.size) {
    await getBlobStore().delete(live.id);
    throw new Error(`Archived content ${archiveBlobId} does not match what was archived (md5 ${live.md5}, ${live.size} bytes)`);
  }
  return live;
}

/** MD5 of a stream, for tests and checks. */
export async function md5Of(stream: Readable): Promise<string> {
  const hash = createHash("md5");
  await pipeline(stream, new Transform({ transform: (chunk, _e, done) => (hash.update(chunk), done()) }));
  return hash.digest("hex");
}
