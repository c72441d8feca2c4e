import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db";
import { fileVersions, files, users, versionTexts } from "@/db/schema";
import { enqueueJob } from "../jobs/enqueue";
import { MissingTool } from "../previews/converter";
import { contentKind } from "../previews/formats";
import { extractPdfText } from "../previews/pdf-document";
import { sameTime } from "../previews/same-time";
import { configurationOf, detectLanguage } from "./detect-language";
import { missingOcrTool } from "./ocr-page";
import { extractOfficeText } from "./office-text";
import { readUtf8Beginning } from "./read-utf8";
import { MAX_TEXT_CHARS, saveText, toolMissingName, type TextUpdate } from "./save-text";

export { MAX_TEXT_CHARS } from "./save-text";

/** Pages are bounded, so that a huge PDF of images costs a bounded time. */
const MAX_PDF_PAGES = 2000;
/** Plain text is read up to this many bytes (UTF-8 takes up to 4 bytes a character). */
const MAX_TEXT_BYTES = 4 * MAX_TEXT_CHARS;
/** The images OCR reads (Tesseract through sharp's decoding). */
const OCR_IMAGE_MIMES = new Set(["image/png", "image/jpeg", "image/tiff", "image/webp"]);
/** A PDF page with fewer letters than this has no text layer worth the name: it is OCR'd. */
export const MIN_PAGE_LETTERS = 10;

export const OCR_JOB = "texts.ocr";

/** Job "texts.extract" ({versionId}). */
export async function extractTextJob(db: Db, payload: Record<string, unknown>): Promise<void> {
  await extractText(db, Number(payload.versionId));
}

/**
 * Extracts the searchable text of one version: every page of a PDF, the content of text formats
 * (decoded as UTF-8, markup removed from HTML), office documents through LibreOffice. Images and
 * PDF pages without a text layer are handed to OCR (job "texts.ocr", its own lane: a long scan
 * never holds back the other texts): the row stays `preparing` meanwhile, with what is known.
 * A tool that is missing is named (tool_missing) and leaves the rest working.
 */
export async function extractText(db: Db, versionId: number): Promise<void> {
  const [row] = await db
    .select({ blobId: fileVersions.blobId, size: fileVersions.size, mime: fileVersions.mime, name: files.name, queuedAt: versionTexts.updatedAt, ownerLanguage: users.language })
    .from(versionTexts)
    .innerJoin(fileVersions, eq(fileVersions.id, versionTexts.versionId))
    .innerJoin(files, eq(files.id, fileVersions.fileId))
    .leftJoin(users, eq(users.id, files.ownerId))
    .where(and(eq(versionTexts.versionId, versionId), inArray(versionTexts.state, ["pending", "preparing"])));
  if (!row) return;
  let update: TextUpdate;
  try {
    update = row.blobId ? await textOf(row.blobId, row.size, row.mime, row.name) : { state: "failed", content: "" };
  } catch (error) {
    if (!(error instanceof MissingTool)) console.warn(`[coffre] the text of version ${versionId} could not be read:`, error instanceof Error ? error.message : error);
    update = error instanceof MissingTool ? { state: "unavailable", content: "", toolMissing: toolMissingName(error.tool) } : { state: "failed", content: "" };
  }
  if (update.state !== "preparing") update.language = detectLanguage(update.content, configurationOf(row.ownerLanguage));
  const saved = await saveText(db, versionId, sameTime(versionTexts.updatedAt, row.queuedAt), { toolMissing: null, pagesDone: 0, searchable: null, ...update });
  if (saved && update.state === "preparing") await enqueueJob(db, OCR_JOB, { versionId }, { dedupeKey: `${OCR_JOB}:${versionId}` });
}

async function textOf(blobId: string, size: number, mime: string | null, name: string): Promise<TextUpdate> {
  const kind = contentKind(mime, name);
  if (kind === "text" || kind === "html") {
    const text = await readUtf8Beginning(blobId, size, MAX_TEXT_BYTES);
    return { state: "available", content: kind === "html" ? stripMarkup(text) : text };
  }
  if (kind === "pdf") {
    // In a PDF worker: a document over its limits fails (state failed), one too long is cut.
    const { text } = await extractPdfText({ blobId, size }, { maxPages: MAX_PDF_PAGES, maxChars: MAX_TEXT_CHARS });
    if (!text.split("\f").some(needsOcr)) return { state: "available", content: text };
    // Pages without a text layer: OCR, or the text layer alone, naming the tool that is missing.
    const missing = missingOcrTool("pdf");
    if (!missing) return { state: "preparing", content: text };
    return { state: text.trim() ? "available" : "unavailable", content: text, toolMissing: toolMissingName(missing) };
  }
  if (kind === "image" && OCR_IMAGE_MIMES.has((mime ?? "").toLowerCase())) {
    const missing = missingOcrTool("image");
    return missing ? { state: "unavailable", content: "", toolMissing: toolMissingName(missing) } : { state: "preparing", content: "" };
  }
  if (kind === "office") return { state: "available", content: await extractOfficeText(blobId, size, name, mime) };
  return { state: "none", content: "" };
}

/** A PDF page whose text layer is empty or nearly so (a scan, perhaps with a stamp or a page number). */
export function needsOcr(pageText: string): boolean {
  return (pageText.match(/\p{L}/gu)?.length ?? 0) < MIN_PAGE_LETTERS;
}

function stripMarkup(html: string): string {
  return html
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^>]*>/g, " ")
    .replace(/&(nbsp|amp|lt|gt|quot|#39);/g, (_, e: string) => ({ nbsp: " ", amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" })[e] ?? " ");
}
