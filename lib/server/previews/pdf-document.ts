import "server-only";
import path from "node:path";
import type { Readable } from "node:stream";
import { getBlobStore } from "@/lib/server/blobs/stores";
import { AppError } from "../errors";
import { defaultPoolSize, positiveSetting, WorkerBusy, WorkerLimitExceeded, WorkerPool, WorkerTaskError, type TaskOptions } from "../workers/worker-pool";

/** Past this size a PDF gets no page count, thumbnail or text: pdf.js reserves the whole length. */
export const MAX_PDF_BYTES = 200 * 1024 * 1024;

/**
 * What one document may cost in the worker (environment.md, trap 17). An image past 40
 * megapixels (a page scanned at 600 dpi is 35) is left out of the page instead of decoded: one
 * 20000 x 20000 image in a 390 KB file would otherwise take gigabytes.
 */
const LIMITS = { maxImagePixels: 40_000_000 };

/** Where a document is: its blob and size. The worker reads it range by range through the main thread. */
export type PdfSource = { blobId: string; size: number };

/** How long a request waits for a free PDF worker before answering 423 (the contract's "being prepared"). */
export const REQUEST_WAIT_MS = 10_000;

/**
 * The PDF workers: PDF_WORKERS threads (default 2 on a machine of 3 cores or more, else 1), each
 * with a heap of PDF_WORKER_MEMORY_MB (default 512) and PDF_TIMEOUT_MS (default 30 s) per
 * operation. Kept on globalThis: Next loads this module once per route bundle, and the pool
 * must be one per process.
 */
function pdfPool(): WorkerPool {
  const shared = globalThis as unknown as { __coffrePdfPool?: WorkerPool };
  shared.__coffrePdfPool ??= new WorkerPool({
    file: path.join(/*turbopackIgnore: true*/ process.cwd(), "lib", "server", "workers", "pdf-worker.mjs"),
    size: positiveSetting(process.env.PDF_WORKERS, defaultPoolSize()),
    memoryMb: positiveSetting(process.env.PDF_WORKER_MEMORY_MB, 512),
    timeoutMs: pdfTimeoutMs(),
    maxQueue: 64,
    idleMs: 60_000,
  });
  return shared.__coffrePdfPool;
}

/** The wall-clock limit of one PDF operation. */
export const pdfTimeoutMs = () => positiveSetting(process.env.PDF_TIMEOUT_MS, 30_000);

export class PdfTooLarge extends Error {
  constructor(size: number) {
    super(`The PDF is too large to be read (${size} bytes, at most ${MAX_PDF_BYTES})`);
  }
}

/** pdf.js could not read the document (damaged, not a PDF, encrypted). */
export class PdfUnreadable extends Error {}

/** The page asked for is not in the document. */
export class PdfPageOutOfRange extends Error {
  constructor(readonly pageCount: number) {
    super(`This document has ${pageCount} page(s)`);
  }
}

/** Over a worker's time or memory limit: the document is too heavy to be read here, now or later. */
export class PdfTooHeavy extends Error {}

type Wait = Pick<TaskOptions, "waitMs">;

/** The number of pages. */
export async function readPdfPageCount(source: PdfSource, wait: Wait = {}): Promise<number> {
  const { pageCount } = await runPdf<{ pageCount: number }>("info", source, {}, wait);
  return pageCount;
}

/** The number of pages and the information dictionary's text entries (Title, Author, CreationDate...), as the file has them. */
export async function readPdfInfo(source: PdfSource): Promise<{ pageCount: number; info: Record<string, string> }> {
  return runPdf("meta", source, {}, {});
}

/** Page `page` (1-based) as a PNG whose longer side is `side` pixels, and the number of pages. */
export async function renderPdfPage(source: PdfSource, page: number, side: number, wait: Wait = {}): Promise<{ pageCount: number; png: Buffer }> {
  const { pageCount, png } = await runPdf<{ pageCount: number; png: Uint8Array }>("render", source, { page, side }, wait);
  return { pageCount, png: Buffer.from(png.buffer, png.byteOffset, png.byteLength) };
}

/**
 * The text of the first `maxPages` pages, at most `maxChars` characters; reading stops at four
 * fifths of the time limit, keeping what was read (`complete` false).
 */
export async function extractPdfText(source: PdfSource, bounds: { maxPages: number; maxChars: number }): Promise<{ text: string; pageCount: number; complete: boolean }> {
  return runPdf("text", source, { ...bounds, budgetMs: Math.floor(pdfTimeoutMs() * 0.8) }, {});
}

/**
 * One operation in a PDF worker. What went over the limits is not tried again by this process
 * (the last 1000 are kept, by document, operation and page): asking for a page again must not
 * cost a worker its whole time limit each time.
 */
async function runPdf<T>(op: string, source: PdfSource, args: Record<string, unknown>, wait: Wait): Promise<T> {
  if (source.size > MAX_PDF_BYTES) throw new PdfTooLarge(source.size);
  if (source.size === 0) throw new PdfUnreadable("The file is empty");
  const key = `${source.blobId}:${op}:${args.page ?? ""}`;
  const tooHeavy = tooHeavyOperations();
  const known = tooHeavy.get(key);
  if (known) throw new PdfTooHeavy(known);
  try {
    return await runInWorker<T>(op, source, args, wait);
  } catch (error) {
    if (error instanceof PdfTooHeavy) {
      if (tooHeavy.size >= 1000) tooHeavy.delete(tooHeavy.keys().next().value!);
      tooHeavy.set(key, error.message);
    }
    throw error;
  }
}

function tooHeavyOperations(): Map<string, string> {
  const shared = globalThis as unknown as { __coffrePdfTooHeavy?: Map<string, string> };
  return (shared.__coffrePdfTooHeavy ??= new Map());
}

async function runInWorker<T>(op: string, source: PdfSource, args: Record<string, unknown>, wait: Wait): Promise<T> {
  const store = getBlobStore();
  const read = async ({ start, end }: { start: number; end: number }) => readRange(await store.read(source.blobId, { start, end: Math.min(end, source.size - 1) }));
  try {
    return await pdfPool().run<T>(op, { ...args, size: source.size, limits: LIMITS }, { ...wait, calls: { read }, timeoutMs: pdfTimeoutMs() });
  } catch (error) {
    if (error instanceof WorkerTaskError) {
      if (error.code === "page_out_of_range") throw new PdfPageOutOfRange((error.details as { pageCount: number }).pageCount);
      throw new PdfUnreadable(error.message);
    }
    if (error instanceof WorkerBusy) throw new AppError("locked", "The document is being prepared; try again in a moment", { state: "preparing" });
    if (error instanceof WorkerLimitExceeded) throw new PdfTooHeavy(`This PDF is too heavy to be read here: ${error.message.charAt(0).toLowerCase()}${error.message.slice(1)}`);
    throw error;
  }
}

/** One requested range: a bounded read (at most a few chunks), never a whole file. */
async function readRange(stream: Readable): Promise<Uint8Array> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return new Uint8Array(Buffer.concat(parts));
}
