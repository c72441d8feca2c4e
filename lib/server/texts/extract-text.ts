import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db";
import { fileVersions, files, versionTexts } from "@/db/schema";
import { contentKind } from "../previews/formats";
import { extractPdfText } from "../previews/pdf-document";
import { sameTime } from "../previews/same-time";
import { readUtf8Beginning } from "./read-utf8";

/**
 * The search index (version_texts.tsv) reads the first million characters of a text, so more is
 * never extracted; pages are bounded too, so that a huge PDF of images costs a bounded time.
 */
export const MAX_TEXT_CHARS = 1_000_000;
const MAX_PDF_PAGES = 2000;
/** Plain text is read up to this many bytes (UTF-8 takes up to 4 bytes a character). */
const MAX_TEXT_BYTES = 4 * MAX_TEXT_CHARS;

type Extracted = { state: "available" | "failed" | "none"; content: string };

/** Job "texts.extract" ({versionId}). */
export async function extractTextJob(db: Db, payload: Record<string, unknown>): Promise<void> {
  await extractText(db, Number(payload.versionId));
}

/**
 * Extracts the searchable text of one version: the text of every page of a PDF, the content of
 * text formats (decoded as UTF-8, markup removed from HTML). Other formats get state none
 * (office documents would need LibreOffice, not installed here).
 */
export async function extractText(db: Db, versionId: number): Promise<void> {
  const [row] = await db
    .select({ blobId: fileVersions.blobId, size: fileVersions.size, mime: fileVersions.mime, name: files.name, queuedAt: versionTexts.updatedAt })
    .from(versionTexts)
    .innerJoin(fileVersions, eq(fileVersions.id, versionTexts.versionId))
    .innerJoin(files, eq(files.id, fileVersions.fileId))
    .where(and(eq(versionTexts.versionId, versionId), inArray(versionTexts.state, ["pending", "preparing"])));
  if (!row) return;
  let extracted: Extracted;
  try {
    extracted = row.blobId ? await textOf(row.blobId, row.size, contentKind(row.mime, row.name)) : { state: "failed", content: "" };
  } catch {
    extracted = { state: "failed", content: "" };
  }
  await save(db, versionId, row.queuedAt, extracted);
}

async function textOf(blobId: string, size: number, kind: ReturnType<typeof contentKind>): Promise<Extracted> {
  if (kind === "text" || kind === "html") {
    const text = await readUtf8Beginning(blobId, size, MAX_TEXT_BYTES);
    return { state: "available", content: kind === "html" ? stripMarkup(text) : text };
  }
  if (kind === "pdf") {
    // In a PDF worker: a document over its limits fails (state failed), one too long is cut.
    const { text } = await extractPdfText({ blobId, size }, { maxPages: MAX_PDF_PAGES, maxChars: MAX_TEXT_CHARS });
    return { state: "available", content: text };
  }
  return { state: "none", content: "" };
}

/**
 * A to_tsvector too large for PostgreSQL (1 MB of lexemes and positions) is halved until it fits.
 * Content replaced meanwhile queued the row again (a new time): this older text is then dropped.
 */
async function save(db: Db, versionId: number, queuedAt: Date, extracted: Extracted): Promise<void> {
  let content = clean(extracted.content);
  for (;;) {
    try {
      await db
        .update(versionTexts)
        .set({ state: extracted.state, content, updatedAt: new Date() })
        .where(and(eq(versionTexts.versionId, versionId), sameTime(versionTexts.updatedAt, queuedAt)));
      return;
    } catch (error) {
      if (content.length < 1000 || !/too long for tsvector/i.test(String((error as { cause?: unknown }).cause ?? error))) throw error;
      content = content.slice(0, Math.floor(content.length / 2));
    }
  }
}

/** PostgreSQL text cannot hold NUL; a cut may leave half a surrogate pair. */
function clean(text: string): string {
  return text.slice(0, MAX_TEXT_CHARS).replace(/\u0000/g, " ").replace(/[\ud800-\udbff]$/, "");
}

function stripMarkup(html: string): string {
  return html
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^>]*>/g, " ")
    .replace(/&(nbsp|amp|lt|gt|quot|#39);/g, (_, e: string) => ({ nbsp: " ", amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" })[e] ?? " ");
}
