import "server-only";
import { EncryptedPDFError, PDFDocument } from "pdf-lib";
import { AppError } from "@/lib/server/errors";
import { findActiveContent } from "./active-content";
import { pageGeometry } from "./page-geometry";

export type PdfPageSize = { width: number; height: number }; // PDF points

const DEFAULT_MAX_MB = 50;

/**
 * The largest PDF the signature flow accepts. pdf-lib (stamping) and @libpdf/core (sealing) both
 * need the whole file in memory, several times over while they rewrite it, so documents are
 * capped (env SIGNATURE_MAX_PDF_MB, default 50 MiB); the API refuses larger ones with 413.
 */
export const MAX_SIGNABLE_PDF_BYTES = maxBytes(process.env.SIGNATURE_MAX_PDF_MB);

function maxBytes(setting: string | undefined): number {
  const mb = Number(setting);
  return Math.floor((Number.isFinite(mb) && mb > 0 ? mb : DEFAULT_MAX_MB) * 1024 * 1024);
}

/**
 * Pages of a PDF as a reader shows them (CropBox, turned by /Rotate); throws AppError 422
 * (code "pdf_encrypted", "pdf_damaged" or "pdf_active_content", message = reason). What passes
 * here can be stamped.
 */
export async function inspectPdf(bytes: Uint8Array): Promise<{ pages: PdfPageSize[] }> {
  if (bytes.length > MAX_SIGNABLE_PDF_BYTES) {
    throw new AppError("payload_too_large", `The PDF is larger than ${Math.round(MAX_SIGNABLE_PDF_BYTES / 1048576)} MiB, the most a signature request takes`);
  }
  const doc = await loadSignablePdf(bytes);
  const pages = doc.getPages().map((page, index) => {
    const { width, height } = pageGeometry(page);
    if (!(width > 0 && height > 0 && Number.isFinite(width) && Number.isFinite(height))) {
      throw damaged(`page ${index + 1} has no valid size`);
    }
    return { width: round(width), height: round(height) };
  });
  if (pages.length === 0) throw damaged("it has no pages");
  const active = findActiveContent(doc);
  if (active.length > 0) {
    throw new AppError(
      "pdf_active_content",
      `The PDF carries content that runs by itself and cannot be signed: ${active.join("; ")}. Save it again without scripts or actions (for instance printed to PDF) and add it again`,
      { active },
    );
  }
  return { pages };
}

/** Loads a PDF for stamping, with the same refusals as inspectPdf. */
export async function loadSignablePdf(bytes: Uint8Array): Promise<PDFDocument> {
  if (!hasPdfHeader(bytes)) throw damaged("it does not start with a PDF header");
  let doc: PDFDocument;
  try {
    // Signatures are refused on any encryption, even owner-only: pdf-lib cannot rewrite it.
    doc = await PDFDocument.load(bytes, { updateMetadata: false, throwOnInvalidObject: true });
  } catch (error) {
    // Encrypted objects look invalid to a strict parse, which may fail before the encryption check.
    if (error instanceof EncryptedPDFError || (await isEncrypted(bytes))) {
      throw new AppError("pdf_encrypted", "The PDF is encrypted (protected by a password or permissions); remove the protection and add it again");
    }
    throw damaged(reasonOf(error));
  }
  try {
    const count = doc.getPageCount();
    if (count === 0) throw new Error("it has no pages");
    return doc;
  } catch (error) {
    throw damaged(reasonOf(error));
  }
}

async function isEncrypted(bytes: Uint8Array): Promise<boolean> {
  // The /Encrypt entry sits in the trailer or the xref stream's dictionary, never compressed:
  // without it there is no need for a second (lenient, and noisy on the console) parse.
  if (!Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).includes("/Encrypt")) return false;
  try {
    return (await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false })).isEncrypted;
  } catch {
    return false;
  }
}

function damaged(reason: string) {
  return new AppError("pdf_damaged", `The PDF is damaged and cannot be signed: ${reason}`);
}

function reasonOf(error: unknown): string {
  // pdf-lib reaches into a catalog or page tree that is not there.
  if (error instanceof TypeError) return "its catalog or page tree is missing";
  const message = error instanceof Error ? error.message : String(error);
  const offset = /invalid object.*"offset":(\d+)/i.exec(message);
  if (offset) return `an object at byte ${offset[1]} cannot be read`;
  return message.replace(/\s+/g, " ").trim().slice(0, 200) || "it cannot be parsed";
}

/** ISO 32000 allows up to 1024 bytes before `%PDF-`. */
function hasPdfHeader(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1024)).toString("latin1");
  return head.includes("%PDF-");
}

const round = (n: number) => Math.round(n * 100) / 100;
