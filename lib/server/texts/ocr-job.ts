import "server-only";
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import type { Db, DbOrTx } from "@/db";
import { blobs, fileVersions, files, users, versionTexts } from "@/db/schema";
import { getBlobStore } from "@/lib/server/blobs/stores";
import { enqueueJob } from "../jobs/enqueue";
import type { JobRun } from "../jobs/registry";
import { MissingTool, withWorkDir } from "../previews/converter";
import { inputFor } from "../previews/converted-input";
import { contentKind } from "../previews/formats";
import { sameTime } from "../previews/same-time";
import { configurationOf, detectLanguage, tesseractLanguages } from "./detect-language";
import { needsOcr, OCR_JOB } from "./extract-text";
import { imagePageCount, imagePageToJpeg, installedOcrLanguages, ocrImage, renderPdfPageImage, separatePdfPages, unitePdfs } from "./ocr-page";
import { saveText, toolMissingName } from "./save-text";

/**
 * One run of the OCR job works this long, then saves its pages and queues the next run: a job's
 * claim lasts 5 minutes (jobs/worker.ts), and a restart loses at most one run's pages.
 */
const sliceMs = () => Number(process.env.OCR_SLICE_MS ?? 120_000);
/** Pages past this are not read (OCR_MAX_PAGES): a scan of thousands of pages costs a bounded time. */
const maxPages = () => Number(process.env.OCR_MAX_PAGES ?? 500);

/**
 * Job "texts.ocr" ({versionId}): one slice of a version's OCR. A slice that fails on its last
 * attempt ends the text `failed`, with the pages read so far still searchable, rather than
 * leaving it `preparing` for ever.
 */
export async function ocrTextJob(db: Db, payload: Record<string, unknown>, run: JobRun): Promise<void> {
  const versionId = Number(payload.versionId);
  try {
    if (await ocrSlice(db, versionId)) await enqueueJob(db, OCR_JOB, payload, { dedupeKey: `${OCR_JOB}:${versionId}` });
  } catch (error) {
    if (run.lastAttempt) await giveUpOcr(db, versionId);
    throw error;
  }
}

/** The OCR of a version stops for good: what it read so far stays, in its detected language. */
async function giveUpOcr(db: Db, versionId: number) {
  const [row] = await db.select({ content: versionTexts.content, ownerLanguage: users.language }).from(versionTexts)
    .innerJoin(fileVersions, eq(fileVersions.id, versionTexts.versionId))
    .innerJoin(files, eq(files.id, fileVersions.fileId))
    .leftJoin(users, eq(users.id, files.ownerId))
    .where(and(eq(versionTexts.versionId, versionId), eq(versionTexts.state, "preparing")));
  if (!row) return;
  const state = row.content.trim() ? "available" : "failed";
  await saveText(db, versionId, eq(versionTexts.state, "preparing"), { state, content: row.content, language: detectLanguage(row.content, configurationOf(row.ownerLanguage)) });
}

/**
 * OCR of the pages of an image (every page of a TIFF) or of the PDF pages without a text layer,
 * from `pages_done` on, page by page, for at most one slice of time; true when pages are left.
 * The row (state preparing) keeps the text of every page read so far, separated by form feeds,
 * and the searchable PDF of those pages (the scan with its text invisible over it; a PDF's pages
 * with a text layer are taken as they are), both replaced at the end of each slice, only if the
 * row is still the one read: its queued time (content replaced starts over) and its progress (two
 * runs of one slice, after a claim lapsed, save once). A page Tesseract fails on keeps no text.
 */
export async function ocrSlice(db: Db, versionId: number, budgetMs = sliceMs()): Promise<boolean> {
  const [row] = await db
    .select({ text: versionTexts, blobId: fileVersions.blobId, size: fileVersions.size, mime: fileVersions.mime, name: files.name, ownerLanguage: users.language })
    .from(versionTexts)
    .innerJoin(fileVersions, eq(fileVersions.id, versionTexts.versionId))
    .innerJoin(files, eq(files.id, fileVersions.fileId))
    .leftJoin(users, eq(users.id, files.ownerId))
    .where(and(eq(versionTexts.versionId, versionId), eq(versionTexts.state, "preparing")));
  if (!row || !row.blobId) return false;
  const { text } = row;
  const guard = and(sameTime(versionTexts.updatedAt, text.updatedAt), eq(versionTexts.pagesDone, text.pagesDone))!;
  const isPdf = contentKind(row.mime, row.name) === "pdf";
  type Ending = { toolMissing?: string; searchable?: { blobId: string; size: number } | null; failed?: boolean };
  const finish = (handle: DbOrTx, content: string, { failed, ...extra }: Ending = {}) => {
    const state = content.trim() ? "available" : extra.toolMissing ? "unavailable" : failed ? "failed" : "available";
    return saveText(handle, versionId, guard, { state, content, language: detectLanguage(content, configurationOf(row.ownerLanguage)), ...extra });
  };

  let languages: string;
  try {
    languages = tesseractLanguages(row.ownerLanguage, await installedOcrLanguages());
  } catch (error) {
    if (!(error instanceof MissingTool)) throw error;
    await finish(db, text.content, { toolMissing: toolMissingName(error.tool) });
    return false;
  }
  const started = Date.now();
  const outcome = await withWorkDir(async (dir) => {
    const input = await inputFor(row.blobId!, row.name, dir);
    // A PDF's pages are its text's pages; an image's pages are counted here, its text grows.
    const pages = isPdf ? text.content.split("\f") : text.pagesDone === 0 ? [] : text.content.split("\f");
    // An image sharp cannot read has no pages: it fails.
    const counted = isPdf ? pages.length : await imagePageCount(input.hostPath).catch(() => null);
    if (counted === null) return { pages, done: true, pagesDone: 0, united: undefined, failed: true };
    const total = Math.min(counted, maxPages());
    const parts: string[] = [];
    let searchable = true;
    let failed = false;
    let n = text.pagesDone;
    if (isPdf && n < total) await separatePdfPages(dir, input, n + 1, Math.min(total, n + 200), "original");
    for (; n < total && (n === text.pagesDone || Date.now() - started < budgetMs); n++) {
      if (isPdf && !needsOcr(pages[n] ?? "")) {
        parts.push(originalPage(n));
        continue;
      }
      try {
        const page = isPdf ? { image: await renderPdfPageImage(dir, input, n + 1, `page-${n}`), dpi: 300 } : await imagePageToJpeg(dir, input.hostPath, n, `page-${n}`);
        const read = await ocrImage(dir, page.image, languages, page.dpi, `ocr-${n}`);
        pages[n] = read.text;
        parts.push(read.pdf);
      } catch (error) {
        if (error instanceof MissingTool) throw error;
        console.warn(`[coffre] OCR of page ${n + 1} of version ${versionId} failed:`, error instanceof Error ? error.message : error);
        failed = true;
        if (isPdf) parts.push(originalPage(n));
        else searchable = false;
        pages[n] ??= "";
      }
      if (isPdf && n + 1 < total && (n + 1) % 200 === 0) await separatePdfPages(dir, input, n + 2, Math.min(total, n + 201), "original");
    }
    // undefined: the searchable PDF stays as it is; null: there is none (a page of an image failed).
    const continues = searchable && (text.pagesDone === 0 || text.searchableBlobId !== null);
    const united = !continues ? null : parts.length === 0 ? undefined : await uniteSearchable(dir, text.searchableBlobId, parts);
    return { pages, done: n >= total, pagesDone: n, united, failed };
  }).catch(async (error: unknown) => {
    if (!(error instanceof MissingTool)) throw error;
    await finish(db, text.content, { toolMissing: toolMissingName(error.tool) });
    return null;
  });
  if (!outcome) return false;

  const content = outcome.pages.join("\f");
  const { united } = outcome;
  const searchable = united === undefined ? undefined : united && { blobId: united.id, size: united.size };
  const saved = await db.transaction(async (tx) => {
    if (united) await tx.insert(blobs).values({ id: united.id, size: united.size, md5: united.md5 }).onConflictDoNothing();
    if (outcome.done) return finish(tx, content, { searchable, failed: outcome.failed });
    return saveText(tx, versionId, guard, { state: "preparing", content, pagesDone: outcome.pagesDone, searchable, keepTime: true });
  });
  if (!saved && united) await getBlobStore().delete(united.id).catch(() => {});
  return saved && !outcome.done;
}

const originalPage = (n: number) => `original-${n + 1}.pdf`;

/** The searchable PDF so far (a blob, or nothing yet) followed by this slice's pages, stored as a new blob. */
async function uniteSearchable(dir: string, previousBlobId: string | null, parts: string[]) {
  const previous = previousBlobId ? await inputFor(previousBlobId, "searchable.pdf", dir, "previous") : null;
  await unitePdfs(dir, [...(previous ? [previous.path] : []), ...parts], "searchable.pdf", previous?.binds ?? []);
  const output = path.join(dir, "searchable.pdf");
  await fs.stat(output);
  return getBlobStore().put(createReadStream(output));
}
