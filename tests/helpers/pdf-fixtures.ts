/**
 * PDFs for the signature tests, built in code (no binary fixtures in the repository): pdf-lib
 * draws plain documents; @libpdf/core encrypts one (pdf-lib cannot, and qpdf is not installed).
 */
import { PDF } from "@libpdf/core";
import { degrees, PDFDocument, rgb, StandardFonts } from "pdf-lib";

const A4: [number, number] = [595.28, 841.89];
const LETTER: [number, number] = [612, 792];

/** A PDF of `pages` pages, each saying "Page N of M" and a known sentence pdftotext can find. */
export async function makePdf(options: { pages?: number; size?: [number, number]; rotate?: number; title?: string } = {}) {
  const count = options.pages ?? 1;
  const doc = await PDFDocument.create();
  doc.setTitle(options.title ?? "Coffre test document");
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= count; n++) {
    const page = doc.addPage(options.size ?? A4);
    if (options.rotate) page.setRotation(degrees(options.rotate));
    const { height } = page.getSize();
    page.drawText(`Page ${n} of ${count}`, { x: 50, y: height - 60, size: 18, font });
    page.drawText("The parties agree to the terms below.", { x: 50, y: height - 90, size: 11, font, color: rgb(0.2, 0.2, 0.2) });
  }
  return doc.save();
}

export const onePagePdf = () => makePdf({ pages: 1 });
/** Three pages of different sizes: A4, US Letter, A4 landscape. */
export async function threePagePdf() {
  const doc = await PDFDocument.load(await makePdf({ pages: 1, title: "Three pages" }));
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const [n, size] of [[2, LETTER], [3, [A4[1], A4[0]]]] as const) {
    const page = doc.addPage([size[0], size[1]]);
    page.drawText(`Page ${n} of 3`, { x: 50, y: size[1] - 60, size: 18, font });
  }
  return doc.save();
}

/** A password-protected PDF (AES-256, user password "open-sesame"). */
export async function encryptedPdf() {
  const pdf = await PDF.load(await onePagePdf());
  pdf.setProtection({ userPassword: "open-sesame", ownerPassword: "owner-secret" });
  return pdf.save();
}

/** Encrypted with an owner password only: readers open it without a password, but it stays encrypted. */
export async function ownerOnlyEncryptedPdf() {
  const pdf = await PDF.load(await onePagePdf());
  pdf.setProtection({ ownerPassword: "owner-secret", permissions: { modify: false } });
  return pdf.save();
}

/** A PDF cut in the middle of its objects: the header is there, the pages are not. */
export async function damagedPdf() {
  const bytes = await makePdf({ pages: 3 });
  const cut = bytes.slice(0, Math.floor(bytes.length * 0.3));
  const garbage = new TextEncoder().encode("\n7 0 obj\n<< /Type /Page /Parent 99 0 R /Contents [ 1 2 R >>\nendobj\n%%EOF\n");
  const out = new Uint8Array(cut.length + garbage.length);
  out.set(cut, 0);
  out.set(garbage, cut.length);
  return out;
}

/** Bytes that start like a PDF and hold nothing else. */
export const headerOnlyPdf = () => new TextEncoder().encode("%PDF-1.7\n%\u00e2\u00e3\n%%EOF\n");

/** A tiny PNG (a dark diagonal stroke on transparency), like a signature drawn on the signing page. */
export async function signaturePng(width = 120, height = 40): Promise<Uint8Array> {
  const { default: sharp } = await import("sharp");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><path d="M5 ${height - 8} C ${width / 3} 0, ${width / 2} ${height}, ${width - 5} 8" stroke="#123" stroke-width="3" fill="none"/></svg>`;
  return new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer());
}
