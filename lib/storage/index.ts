import "server-only";
import path from "node:path";
import { dataDir } from "@/lib/config/data-dir";
import type { BlobStore } from "./blob-store";
import { LocalBlobStore } from "./local-store";
import { S3BlobStore, s3SettingsFromEnv } from "./s3-store";

const store = globalThis as unknown as { __coffreBlobs?: BlobStore };

/**
 * The configured blob store: STORAGE=fs (the default, under DATA_DIR/blobs) or STORAGE=s3 (the
 * S3_* variables; work files of chunked and tus uploads under UPLOAD_WORK_DIR, by default
 * DATA_DIR/tmp: a folder shared by every process when several serve one platform).
 */
export function getBlobStore(): BlobStore {
  if (!store.__coffreBlobs) {
    const kind = process.env.STORAGE || "fs";
    if (kind === "fs") store.__coffreBlobs = new LocalBlobStore(path.join(dataDir(), "blobs"));
    else if (kind === "s3") store.__coffreBlobs = new S3BlobStore(s3SettingsFromEnv(), uploadWorkDir());
    else throw new Error(`STORAGE=${kind} is not supported; use fs or s3`);
  }
  return store.__coffreBlobs;
}

/** Where an S3 store keeps work files of unfinished uploads (and the archive tier its own). */
export function uploadWorkDir(): string {
  return path.resolve(/*turbopackIgnore: true*/ process.env.UPLOAD_WORK_DIR || path.join(dataDir(), "tmp"));
}

export type { BlobStore } from "./blob-store";
