import "server-only";
import { randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { getBlobStore } from "@/lib/server/blobs/stores";
import type { OpenedBlob } from "../downloads/send-blob";
import { AppError } from "../errors";
import { sealPool } from "../signatures/seal/seal-pool";
import { positiveSetting, WorkerBusy, WorkerLimitExceeded, WorkerTaskError } from "../workers/worker-pool";

/** How long a download waits for a free worker before answering 423. */
const REQUEST_WAIT_MS = 10_000;

/** The largest PDF a watermarked link stamps (WATERMARK_MAX_PDF_MB, default 50 MiB): pdf-lib holds it whole, several times over. */
export const maxWatermarkBytes = () => positiveSetting(process.env.WATERMARK_MAX_PDF_MB, 50) * 1024 * 1024;
/** The wall-clock limit of one stamping (WATERMARK_TIMEOUT_MS, default 60 s). */
const watermarkTimeoutMs = () => positiveSetting(process.env.WATERMARK_TIMEOUT_MS, 60_000);

/** A stamped copy on disk, sent once then removed. */
export type StampedPdf = { size: number; opened: OpenedBlob; discard: () => Promise<void> };

/**
 * The PDF of a blob with the watermark's line on every page, made in a seal worker (its heap
 * ceiling, SIGNATURE_WORKER_MEMORY_MB, and WATERMARK_TIMEOUT_MS) into a temporary file, then
 * streamed from it. Over the size cap, or over the worker's time or memory: 413, never the
 * unwatermarked bytes. An encrypted or damaged PDF: 422 (it cannot be stamped).
 */
export async function stampPdfBlob(source: { blobId: string; size: number }, line: string): Promise<StampedPdf> {
  const max = maxWatermarkBytes();
  if (source.size > max) {
    throw new AppError("payload_too_large", `This link watermarks its documents, and this PDF is larger than ${Math.round(max / 1048576)} MiB, the most that can be watermarked`);
  }
  const file = path.join(process.env.PREVIEW_WORK_DIR ?? os.tmpdir(), `coffre-watermark-${randomUUID()}.pdf`);
  const discard = () => fs.rm(file, { force: true }).catch(() => {});
  const store = getBlobStore();
  const read = async ({ start, end }: { start: number; end: number }) => readAll(await store.read(source.blobId, { start, end }));
  try {
    const pool = await sealPool();
    const { size } = await pool.run<{ size: number }>("watermark", { size: source.size, line, file }, { calls: { read }, timeoutMs: watermarkTimeoutMs(), waitMs: REQUEST_WAIT_MS });
    return { size, discard, opened: { send: (res) => pipeline(createReadStream(file), res).then(() => true, () => false).finally(discard) } };
  } catch (error) {
    await discard();
    if (error instanceof WorkerTaskError && (error.code === "pdf_encrypted" || error.code === "pdf_damaged")) throw new AppError(error.code, error.message);
    if (error instanceof WorkerLimitExceeded) {
      throw new AppError("payload_too_large", `This link watermarks its documents, and this PDF is too large or too complex to be watermarked here: ${error.message.charAt(0).toLowerCase()}${error.message.slice(1)}`);
    }
    if (error instanceof WorkerBusy) throw new AppError("locked", "Documents are being prepared; try again in a moment");
    throw error;
  }
}

async function readAll(stream: Readable): Promise<Uint8Array> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return new Uint8Array(Buffer.concat(parts));
}
