import "server-only";
import type { Readable } from "node:stream";
import type { PDFDocumentProxy } from "pdfjs-dist/legacy/build/pdf.mjs";
import { getBlobStore } from "@/lib/server/blobs/stores";

/** Past this size a PDF gets no page count, thumbnail or text: pdfjs reserves the whole length. */
export const MAX_PDF_BYTES = 200 * 1024 * 1024;
const CHUNK = 256 * 1024;

type Pdfjs = typeof import("pdfjs-dist/legacy/build/pdf.mjs");
let pdfjs: Promise<Pdfjs> | undefined;

/** Loaded on first use: pdfjs is large, and only the jobs and the infos operation need it. */
function loadPdfjs(): Promise<Pdfjs> {
  pdfjs ??= import("pdfjs-dist/legacy/build/pdf.mjs");
  return pdfjs;
}

/**
 * Opens a stored PDF without reading all of it: pdfjs asks for the byte ranges it needs (the
 * cross-reference table, then the objects of the pages it is asked for), so a page count or a
 * first page reads a few chunks of a large document. Fonts are drawn by pdfjs itself and no
 * script of the document is evaluated. The document is destroyed once `read` settles.
 */
export async function withPdf<T>(blobId: string, size: number, read: (doc: PDFDocumentProxy) => Promise<T>): Promise<T> {
  if (size > MAX_PDF_BYTES) throw new PdfTooLarge(size);
  const { getDocument, PDFDataRangeTransport } = await loadPdfjs();
  const store = getBlobStore();
  const initial = await readRange(await store.read(blobId, { start: 0, end: Math.min(size, CHUNK) - 1 }));

  class BlobRangeTransport extends PDFDataRangeTransport {
    override requestDataRange(begin: number, end: number) {
      // pdfjs's ranges end exclusive, the store's inclusive.
      store
        .read(blobId, { start: begin, end: Math.min(end, size) - 1 })
        .then(readRange)
        .then((chunk) => this.onDataRange(begin, chunk))
        .catch(() => this.abort());
    }
  }
  const transport = new BlobRangeTransport(size, initial);
  const task = getDocument({
    range: transport,
    length: size,
    rangeChunkSize: CHUNK,
    disableAutoFetch: true,
    disableStream: true,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  });
  transport.transportReady();
  const doc = await task.promise;
  try {
    return await read(doc);
  } finally {
    await doc.destroy();
  }
}

export class PdfTooLarge extends Error {
  constructor(size: number) {
    super(`The PDF is too large to be read (${size} bytes, at most ${MAX_PDF_BYTES})`);
  }
}

/** One requested range: a bounded read (at most a few chunks), never a whole file. */
async function readRange(stream: Readable): Promise<Uint8Array> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return new Uint8Array(Buffer.concat(parts));
}

type NodeCanvas = { toBuffer(type: "image/png"): Buffer };

/** Renders a page to a PNG whose longer side is `side` pixels (for a thumbnail). */
export async function renderPage(doc: PDFDocumentProxy, pageNumber: number, side: number): Promise<Buffer> {
  const page = await doc.getPage(pageNumber);
  const unit = page.getViewport({ scale: 1 });
  const viewport = page.getViewport({ scale: side / Math.max(unit.width, unit.height, 1) });
  // In Node, pdfjs draws on @napi-rs/canvas; its factory is typed loosely.
  const factory = doc.canvasFactory as { create(width: number, height: number): { canvas: NodeCanvas; context: CanvasRenderingContext2D } };
  const { canvas, context } = factory.create(Math.max(1, Math.ceil(viewport.width)), Math.max(1, Math.ceil(viewport.height)));
  await page.render({ canvas: canvas as unknown as HTMLCanvasElement, canvasContext: context, viewport }).promise;
  page.cleanup();
  return canvas.toBuffer("image/png");
}
