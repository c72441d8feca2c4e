import "server-only";
import type { FileHandle } from "node:fs/promises";
import fs from "node:fs/promises";
import type { ServerResponse } from "node:http";
import { pipeline } from "node:stream/promises";
import { getBlobStore } from "@/lib/server/blobs/stores";
import type { ByteRange } from "@/lib/storage/blob-store";
import { AppError } from "../errors";

const CHUNK = 1 << 20;
/** Buffers kept for reuse between transfers: two per transfer in flight, at most this many idle. */
const MAX_IDLE_BUFFERS = 16;
const idle: Buffer[] = [];

const takeBuffer = () => idle.pop() ?? Buffer.allocUnsafeSlow(CHUNK);
const giveBack = (buffer: Buffer) => void (idle.length < MAX_IDLE_BUFFERS && idle.push(buffer));

/** A blob opened for a response: opening fails (404) before any header goes out. */
export type OpenedBlob = {
  /** Writes the bytes and ends the response; false when the client went away first. */
  send(res: ServerResponse): Promise<boolean>;
};

/**
 * Opens a blob, or an inclusive byte range of it, for sending. A blob on local disk is read with
 * positioned reads into two buffers reused from transfer to transfer, each written to the socket
 * while the other fills: no buffer per chunk for the garbage collector, no stream machinery per
 * chunk (issue 12). Other stores stream.
 */
export async function openBlob(blobId: string, range?: ByteRange): Promise<OpenedBlob> {
  const store = getBlobStore();
  const file = store.localPath(blobId);
  if (!file) {
    const stream = await store.read(blobId, range);
    return { send: (res) => pipeline(stream, res).then(() => true, () => false) };
  }
  let handle: FileHandle;
  try {
    handle = await fs.open(file, "r");
  } catch {
    throw new AppError("not_found", "The content of this file is missing");
  }
  const start = range?.start ?? 0;
  const end = range ? range.end + 1 : (await handle.stat()).size;
  return {
    send: async (res) => {
      try {
        return await pump(handle, start, end, res);
      } finally {
        await handle.close().catch(() => {});
      }
    },
  };
}

async function pump(handle: FileHandle, start: number, end: number, res: ServerResponse): Promise<boolean> {
  const buffers = [takeBuffer(), takeBuffer()];
  // The write of each buffer, settled once the socket has taken its bytes: only then is it refilled.
  const inFlight: (Promise<boolean> | null)[] = [null, null];
  let position = start;
  let turn = 0;
  let complete = true;
  try {
    while (position < end) {
      if (inFlight[turn] && !(await inFlight[turn])) {
        complete = false;
        break;
      }
      const buffer = buffers[turn];
      const { bytesRead } = await handle.read(buffer, 0, Math.min(CHUNK, end - position), position);
      if (bytesRead === 0) break;
      position += bytesRead;
      inFlight[turn] = write(res, buffer.subarray(0, bytesRead));
      turn ^= 1;
    }
    const flushed = await Promise.all(inFlight.map((w) => w ?? true));
    complete &&= flushed.every(Boolean) && position >= end;
    if (complete) await new Promise<void>((resolve) => res.end(resolve));
    else res.destroy();
    return complete;
  } catch (error) {
    res.destroy();
    // A read that failed after the headers cannot be answered; the cut connection tells the client.
    console.error("[coffre] reading a blob for a download failed:", error);
    await Promise.all(inFlight.map((w) => w ?? true));
    return false;
  } finally {
    // Each buffer is back in the pool only once no write holds it.
    await Promise.all(inFlight.map((w) => w ?? true));
    buffers.forEach(giveBack);
  }
}

/** Resolves true once the socket took the bytes, false when the response was destroyed first. */
function write(res: ServerResponse, chunk: Buffer): Promise<boolean> {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve(false);
    // A connection cut mid-write may never call the write back: its close settles it instead.
    const onClose = () => resolve(false);
    res.once("close", onClose);
    res.write(chunk, (error) => {
      res.off("close", onClose);
      resolve(!error);
    });
  });
}
