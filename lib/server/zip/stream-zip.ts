import "server-only";
import type { Readable } from "node:stream";
import type { ServerResponse } from "node:http";
import { pipeline } from "node:stream/promises";
import { ZipFile } from "yazl";
import { getBlobStore } from "@/lib/server/blobs/stores";
import { isCompressedAlready, type ZipEntry } from "../shares/zip-entries";

/**
 * Streams `entries` as one zip on `res` as it is built (yazl), with no temporary copy: each file's
 * blob is opened only when its turn comes, and the response's backpressure paces the reads. The
 * size is unknown beforehand, so the answer is chunked. Resolves true when the zip went out whole,
 * false when the client went away or a blob failed mid-way: the blob being read is then closed,
 * so nothing keeps running after the answer (issue 29).
 */
export async function streamZip(res: ServerResponse, entries: ZipEntry[], headers: Record<string, string>): Promise<boolean> {
  const zip = new ZipFile();
  const opened = new Set<Readable>();
  // A blob that fails to open or read mid-way ends the transfer (not the process).
  zip.on("error", (error: Error) => (zip.outputStream as NodeJS.ReadableStream & { destroy(e: Error): void }).destroy(error));
  const store = getBlobStore();
  for (const entry of entries) {
    if (entry.kind === "folder") {
      zip.addEmptyDirectory(entry.path, { mtime: entry.mtime });
    } else if (entry.kind === "text") {
      zip.addBuffer(Buffer.from(entry.text, "utf8"), entry.path, { mtime: entry.mtime });
    } else if (!entry.blobId || entry.size === 0) {
      zip.addBuffer(Buffer.alloc(0), entry.path, { mtime: entry.mtime });
    } else {
      const blobId = entry.blobId;
      zip.addReadStreamLazy(entry.path, { size: entry.size, mtime: entry.mtime, compress: !isCompressedAlready(entry.mime) }, (cb) => {
        store.read(blobId).then(
          (stream) => {
            opened.add(stream);
            stream.once("close", () => opened.delete(stream));
            cb(null, stream);
          },
          (error) => cb(error, undefined as never),
        );
      });
    }
  }
  zip.end();
  res.writeHead(200, headers);
  const complete = await pipeline(zip.outputStream, res).then(
    () => true,
    () => false,
  );
  if (!complete) for (const stream of opened) stream.destroy();
  return complete;
}
