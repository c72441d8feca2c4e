import "server-only";
import { createWriteStream } from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { getBlobStore } from "@/lib/server/blobs/stores";

/**
 * A converter's input: the blob bound read-only at /work/<stem>.<extension> when the store keeps
 * it on disk, else copied there. `hostPath` is where this process reads it.
 */
export async function inputFor(
  blobId: string,
  fileName: string,
  workDir: string,
  stem = "input",
): Promise<{ path: string; hostPath: string; binds: { source: string; target: string }[] }> {
  const extension = /\.([A-Za-z0-9]{1,8})$/.exec(fileName)?.[1]?.toLowerCase() ?? "bin";
  const name = `${stem}.${extension}`;
  const store = getBlobStore();
  const onDisk = store.localPath(blobId);
  if (onDisk) return { path: `/work/${name}`, hostPath: onDisk, binds: [{ source: onDisk, target: `/work/${name}` }] };
  await pipeline(await store.read(blobId), createWriteStream(path.join(workDir, name)));
  return { path: `/work/${name}`, hostPath: path.join(workDir, name), binds: [] };
}
