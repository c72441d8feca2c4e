import "server-only";
import { concatTransformationMatrix, degrees, EncryptedPDFError, PDFDocument, popGraphicsState, pushGraphicsState, rgb } from "pdf-lib";
import { FontStack } from "../signatures/seal/fonts";
import { pageGeometry } from "../signatures/seal/page-geometry";

const ANGLE = 30;
const INK = rgb(0.78, 0.12, 0.12);

/** A refusal that crosses the worker's boundary with its code (watermark-pdf.ts turns it into a 422). */
export class WatermarkRefused extends Error {
  constructor(
    readonly code: "pdf_encrypted" | "pdf_damaged",
    message: string,
  ) {
    super(message);
  }
}

/**
 * Every page of the PDF with the watermark's line drawn over it: repeated along a 30° diagonal
 * across the page as a reader shows it (CropBox, /Rotate), translucent, in an embedded Noto Sans
 * (any Latin, Greek or Cyrillic address), as real text (a reader can select it, pdftotext reads
 * it). Runs in a seal worker (seal-worker.ts): pdf-lib holds the whole document.
 */
export async function stampWatermark(pdf: Uint8Array, line: string): Promise<Uint8Array> {
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(pdf, { updateMetadata: false });
  } catch (error) {
    if (error instanceof EncryptedPDFError) throw new WatermarkRefused("pdf_encrypted", "This PDF is encrypted and cannot be watermarked, so it cannot be downloaded through this link");
    throw new WatermarkRefused("pdf_damaged", "This PDF is damaged and cannot be watermarked, so it cannot be downloaded through this link");
  }
  const fonts = await FontStack.create(doc, "sans");
  const runs = await fonts.runs(line);
  const cos = Math.cos((ANGLE * Math.PI) / 180);
  const sin = Math.sin((ANGLE * Math.PI) / 180);
  for (const page of doc.getPages()) {
    const { width, height, toUser } = pageGeometry(page);
    if (!(width > 0 && height > 0)) continue;
    const size = Math.max(8, Math.min(width, height) / 24);
    const lineWidth = runs.reduce((sum, r) => sum + r.font.widthOfTextAtSize(r.text, size), 0);
    const step = lineWidth + size * 3;
    const reach = Math.hypot(width, height) / 2 + step;
    // Drawn in the displayed frame: one matrix maps it onto the page's own space.
    page.pushOperators(pushGraphicsState(), concatTransformationMatrix(...toUser));
    for (let across = -reach, row = 0; across <= reach; across += size * 5, row++) {
      for (let along = -reach - ((row * step) / 3) % step; along <= reach; along += step) {
        // The start of one line: from the page's centre, `along` its direction and `across` it.
        let x = width / 2 + along * cos - across * sin;
        let y = height / 2 + along * sin + across * cos;
        for (const run of runs) {
          page.drawText(run.text, { x, y, size, font: run.font, color: INK, opacity: 0.3, rotate: degrees(ANGLE) });
          const advance = run.font.widthOfTextAtSize(run.text, size);
          x += advance * cos;
          y += advance * sin;
        }
      }
    }
    page.pushOperators(popGraphicsState());
  }
  return doc.save();
}
