import "server-only";
import path from "node:path";
import type { Transform } from "node:stream";
import zlib from "node:zlib";
import { dataDir } from "@/lib/config/data-dir";
import type { BlobStore } from "./blob-store";
import { LocalBlobStore } from "./local-store";

const store = globalThis as unknown as { __coffreArchive?: BlobStore };

/**
 * The cold tier (api.md, archives): a second BlobStore, ARCHIVE_DIR on disk by default
 * (DATA_DIR/archive). ARCHIVE_STORAGE=s3 waits for the S3 store.
 */
export function getArchiveStore(): BlobStore {
  if (!store.__coffreArchive) {
    const kind = process.env.ARCHIVE_STORAGE ?? "fs";
    if (kind !== "fs") throw new Error(`ARCHIVE_STORAGE=${kind} is not supported yet; use fs`);
    store.__coffreArchive = new LocalBlobStore(path.resolve(/*turbopackIgnore: true*/ process.env.ARCHIVE_DIR || path.join(dataDir(), "archive")));
  }
  return store.__coffreArchive;
}

export type Compression = "zstd" | "gzip" | "none";

type ZstdZlib = { createZstdCompress?: () => Transform; createZstdDecompress?: () => Transform };
const zstd = zlib as unknown as ZstdZlib;
const hasZstd = typeof zstd.createZstdCompress === "function" && typeof zstd.createZstdDecompress === "function";

/**
 * How new archive blobs are compressed: ARCHIVE_COMPRESSION (zstd, gzip or none); by default zstd
 * where Node's zlib has it (22.15 and later), else gzip. Each archived version records its own,
 * so a change never makes older archives unreadable.
 */
export function archiveCompression(): Compression {
  const wanted = process.env.ARCHIVE_COMPRESSION;
  if (wanted === "none" || wanted === "gzip") return wanted;
  if (wanted === "zstd" && !hasZstd) throw new Error("ARCHIVE_COMPRESSION=zstd needs Node 22.15 or later; use gzip");
  return hasZstd ? "zstd" : "gzip";
}

export function compressor(compression: Compression): Transform | null {
  if (compression === "none") return null;
  return compression === "zstd" ? zstd.createZstdCompress!() : zlib.createGzip({ level: 6 });
}

export function decompressor(compression: string): Transform | null {
  if (compression === "none") return null;
  if (compression === "gzip") return zlib.createGunzip();
  if (compression === "zstd" && hasZstd) return zstd.createZstdDecompress!();
  throw new Error(`This server cannot read ${compression}-compressed archives`);
}
