import fs from "node:fs/promises";
import path from "node:path";
import { inject } from "vitest";
import { getBlobStore } from "@/lib/storage";

/**
 * Blobs as the tests see them, through the store interface whatever STORAGE is: existence is
 * `stat`, and ageing (for the garbage collection's grace period) sets the last write of the
 * blob's file — on disk for STORAGE=fs, in the run's s3rver folder for TEST_S3=1 (s3rver answers
 * an object's Last-Modified from its file's mtime; a real S3 has no way to backdate an object).
 */
export const blobExists = async (id: string) => (await getBlobStore().stat(id)) !== null;

export async function ageBlob(id: string, ms: number): Promise<void> {
  const when = new Date(Date.now() - ms);
  await fs.utimes(blobFile(id), when, when);
}

function blobFile(id: string): string {
  const local = getBlobStore().localPath(id);
  if (local) return local;
  const directory = inject("s3Directory");
  if (!directory || !process.env.S3_BUCKET) throw new Error("ageBlob: the blob store is neither on disk nor on the test run's s3rver");
  return path.join(directory, process.env.S3_BUCKET, "blobs", `${id}._S3rver_object`);
}
