import "server-only";
import path from "node:path";
import type { Readable } from "node:stream";
import { getBlobStore } from "@/lib/server/blobs/stores";
import { positiveSetting, WorkerPool } from "../workers/worker-pool";

/** A worker reads at most this much of a blob in one call (its reads are blocks of 256 KB). */
const MAX_READ_BYTES = 1024 * 1024;

/**
 * The metadata worker (lib/server/workers/meta-worker.mjs): one thread, with a heap of
 * META_WORKER_MEMORY_MB (default 128) and META_TIMEOUT_MS (default 15 s) per file. Its work is
 * small (an archive's directory, a few kilobytes of XML or EXIF), so what is past these limits is
 * hostile or broken and ends as no metadata. Kept on globalThis: one pool per process.
 */
function metaPool(): WorkerPool {
  const shared = globalThis as unknown as { __coffreMetaPool?: WorkerPool };
  shared.__coffreMetaPool ??= new WorkerPool({
    file: path.join(/*turbopackIgnore: true*/ process.cwd(), "lib", "server", "workers", "meta-worker.mjs"),
    size: 1,
    memoryMb: positiveSetting(process.env.META_WORKER_MEMORY_MB, 128),
    timeoutMs: positiveSetting(process.env.META_TIMEOUT_MS, 15_000),
    maxQueue: 64,
    idleMs: 60_000,
  });
  return shared.__coffreMetaPool;
}

/** One operation in the metadata worker; the worker reads the blob, if it needs it, range by range through here. */
export function runMetaTask<T>(op: string, args: Record<string, unknown>, blob?: { id: string; size: number }): Promise<T> {
  const read = async ({ start, end }: { start: number; end: number }) => {
    if (!blob || !(start >= 0 && end >= start && end < blob.size && end - start < MAX_READ_BYTES)) throw new Error("A read outside the file");
    return readAll(await getBlobStore().read(blob.id, { start, end }));
  };
  return metaPool().run<T>(op, args, { calls: { read } });
}

/** A bounded range of a blob (its callers bound it) as bytes. */
export async function readAll(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}
