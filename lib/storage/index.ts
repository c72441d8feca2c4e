import path from "node:path";
import { dataDir } from "@/db";
import type { BlobStore } from "./blob-store";
import { LocalBlobStore } from "./local-store";

const store = globalThis as unknown as { __coffreBlobs?: BlobStore };

/** The configured blob store (STORAGE=fs, the default, under DATA_DIR/blobs). */
export function getBlobStore(): BlobStore {
  if (!store.__coffreBlobs) {
    const kind = process.env.STORAGE ?? "fs";
    if (kind !== "fs") throw new Error(`STORAGE=${kind} is not supported yet; use fs`);
    store.__coffreBlobs = new LocalBlobStore(path.join(dataDir(), "blobs"));
  }
  return store.__coffreBlobs;
}

export type { BlobStore } from "./blob-store";
