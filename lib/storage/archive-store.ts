import "server-only";
import path from "node:path";
import type { Transform } from "node:stream";
import zlib from "node:zlib";
import { dataDir } from "@/lib/config/data-dir";
import type { BlobStore } from "./blob-store";
import { uploadWorkDir } from "./index";
import { LocalBlobStore } from "./local-store";
import { S3BlobStore, s3SettingsFromEnv } from "./s3-store";

const store = globalThis as unknown as { __coffreArchive?: BlobStore };

/**
 * The cold tier (api.md, archives): a second BlobStore, ARCHIVE_DIR on disk by default
 * (DATA_DIR/archive), or with ARCHIVE_STORAGE=s3 objects `archive/<id>` in ARCHIVE_S3_BUCKET
 * (by default S3_BUCKET; the other S3_* variables are shared with the main store).
 */
export function getArchiveStore(): BlobStore {
  if (!store.__coffreArchive) {
    const kind = process.env.ARCHIVE_STORAGE || "fs";
    if (kind === "fs") {
      store.__coffreArchive = new LocalBlobStore(path.resolve(/*turbopackIgnore: true*/ process.env.ARCHIVE_DIR || path.join(dataDir(), "archive")));
    } else if (kind === "s3") {
      const env = { ...process.env, S3_BUCKET: process.env.ARCHIVE_S3_BUCKET || process.env.S3_BUCKET };
      if (!env.S3_BUCKET) throw new Error("ARCHIVE_STORAGE=s3 needs ARCHIVE_S3_BUCKET or S3_BUCKET");
      store.__coffreArchive = new S3BlobStore(s3SettingsFromEnv(env), path.join(uploadWorkDir(), "archive"), "archive/");
    } else {
      throw new Error(`ARCHIVE_STORAGE=${kind} is not supported; use fs or s3`);
    }
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
