"use client";

export type PdfModule = typeof import("pdfjs-dist");
export type PdfDocument = Awaited<ReturnType<PdfModule["getDocument"]>["promise"]>;

/**
 * pdf.js, loaded once, on the first PDF shown (file preview or signatures): it is large and most
 * visits never need it. The worker is the one the app serves from the installed pdfjs-dist
 * (app/assets/pdf-worker).
 */
let pdfjs: Promise<PdfModule> | null = null;
export function loadPdfJs(): Promise<PdfModule> {
  pdfjs ??= import("pdfjs-dist").then((module) => {
    module.GlobalWorkerOptions.workerSrc = "/assets/pdf-worker";
    return module;
  });
  return pdfjs;
}
