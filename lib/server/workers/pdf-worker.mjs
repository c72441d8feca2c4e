// The PDF worker (lib/server/previews/pdf-document.ts runs it through worker-pool.ts): pdf.js
// opens, renders and reads documents here, never on the web process's event loop.
//
// Plain JavaScript that imports node_modules packages only, so that the same file runs under the
// tests, `next start` and the esbuild server bundle (it is loaded by path, from the project's
// folder). Everything else arrives by message: the operation, its limits, and the bytes of the
// document, range by range, read by the main thread from whatever store holds them.
import { serveOperations } from "./worker-side.mjs";

const CHUNK = 256 * 1024;

/** @type {Promise<typeof import("pdfjs-dist/legacy/build/pdf.mjs")> | undefined} */
let pdfjs;
const loadPdfjs = () => (pdfjs ??= import("pdfjs-dist/legacy/build/pdf.mjs"));

class TaskError extends Error {
  constructor(code, message, details) {
    super(message);
    this.code = code;
    this.details = details;
  }
}

/**
 * Opens the document through a range transport: pdf.js asks for the ranges it needs (the
 * cross-reference table, then the objects of the pages it is asked for). No script of the
 * document is evaluated, no font is loaded from the system, and images larger than
 * `maxImagePixels` are left out of the page rather than decoded.
 */
async function openPdf(call, { size, limits }) {
  const { getDocument, PDFDataRangeTransport } = await loadPdfjs();
  const readRange = (start, end) => call("read", { start, end });
  const initial = await readRange(0, Math.min(size, CHUNK) - 1);
  class BlobRangeTransport extends PDFDataRangeTransport {
    requestDataRange(begin, end) {
      // pdf.js's ranges end exclusive, the store's inclusive.
      readRange(begin, Math.min(end, size) - 1).then(
        (chunk) => this.onDataRange(begin, chunk),
        () => this.abort(),
      );
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
    enableXfa: false,
    maxImageSize: limits.maxImagePixels,
    canvasMaxAreaInBytes: limits.maxImagePixels * 4,
    verbosity: 0,
  });
  transport.transportReady();
  try {
    return await task.promise;
  } catch (error) {
    throw new TaskError("unreadable", error instanceof Error ? error.message : String(error));
  }
}

/** A page as a PNG whose longer side is `side` pixels. */
async function renderPage(doc, pageNumber, side) {
  if (!Number.isInteger(pageNumber) || pageNumber < 1 || pageNumber > doc.numPages) {
    throw new TaskError("page_out_of_range", `This document has ${doc.numPages} page(s)`, { pageCount: doc.numPages });
  }
  const page = await doc.getPage(pageNumber);
  const unit = page.getViewport({ scale: 1 });
  const viewport = page.getViewport({ scale: side / Math.max(unit.width, unit.height, 1) });
  const { canvas, context } = doc.canvasFactory.create(Math.max(1, Math.ceil(viewport.width)), Math.max(1, Math.ceil(viewport.height)));
  await page.render({ canvas, canvasContext: context, viewport }).promise;
  page.cleanup();
  return new Uint8Array(canvas.toBuffer("image/png"));
}

serveOperations({
  /** {size, limits} → {pageCount} */
  async info(args, call) {
    const doc = await openPdf(call, args);
    try {
      return { value: { pageCount: doc.numPages } };
    } finally {
      await doc.destroy();
    }
  },

  /** {size, limits} → {pageCount, info}: the information dictionary's text entries, as found. */
  async meta(args, call) {
    const doc = await openPdf(call, args);
    try {
      const { info } = await doc.getMetadata();
      const picked = {};
      for (const key of ["Title", "Author", "Subject", "Keywords", "Creator", "Producer", "CreationDate"]) {
        // Cut here: a title of megabytes is not sent to the main thread.
        if (typeof info?.[key] === "string") picked[key] = info[key].slice(0, 16_384);
      }
      return { value: { pageCount: doc.numPages, info: picked } };
    } finally {
      await doc.destroy();
    }
  },

  /** {size, limits, page, side} → {pageCount, png} */
  async render(args, call) {
    const doc = await openPdf(call, args);
    try {
      const png = await renderPage(doc, args.page, args.side);
      return { value: { pageCount: doc.numPages, png }, transfer: [png.buffer] };
    } finally {
      await doc.destroy();
    }
  },

  /**
   * {size, limits, maxPages, maxChars, budgetMs} → {pageCount, text, complete}: the text of the
   * first pages, stopping at `maxPages`, `maxChars` or once `budgetMs` has passed (what was read
   * so far is kept; the pool's hard limit stops a single page that takes too long). Pages are
   * separated by a form feed (version_texts.content: page N follows the (N-1)th '\f').
   */
  async text(args, call) {
    const started = Date.now();
    const doc = await openPdf(call, args);
    try {
      const parts = [];
      let length = 0;
      let n = 1;
      const last = Math.min(doc.numPages, args.maxPages);
      for (; n <= last && length < args.maxChars && Date.now() - started < args.budgetMs; n++) {
        const page = await doc.getPage(n);
        const content = await page.getTextContent();
        let text = "";
        for (const item of content.items) {
          if ("str" in item) text += item.str.replaceAll("\f", " ") + (item.hasEOL ? "\n" : " ");
          if (length + text.length >= args.maxChars) break;
        }
        page.cleanup();
        parts.push(text);
        length += text.length + 1;
      }
      const text = parts.join("\f").slice(0, args.maxChars);
      return { value: { pageCount: doc.numPages, text, complete: n > doc.numPages } };
    } finally {
      await doc.destroy();
    }
  },
});
