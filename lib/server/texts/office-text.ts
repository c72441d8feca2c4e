import "server-only";
import fs from "node:fs/promises";
import path from "node:path";
import { defaultMemoryBytes, defaultTimeoutMs, runSandboxed, withWorkDir, type SandboxLimits } from "../previews/converter";
import { inputFor } from "../previews/converted-input";
import { maxOfficeBytes } from "../previews/office-preview";

/** The office formats by what their text is made of. */
const SPREADSHEETS = new Set(["xls", "xlsx", "ods"]);
const PRESENTATIONS = new Set(["ppt", "pptx", "odp"]);
const SPREADSHEET_MIME = /spreadsheet|ms-excel/;
const PRESENTATION_MIME = /presentation|powerpoint/;

/** What LibreOffice may write: text is small, the PDF of a presentation is not. */
const MAX_OUTPUT_BYTES = 200 * 1024 * 1024;
const limits = (): SandboxLimits => ({ timeoutMs: defaultTimeoutMs(60_000), maxOutputBytes: MAX_OUTPUT_BYTES, memoryBytes: defaultMemoryBytes(1024) });

const SOFFICE = ["--headless", "--norestore", "--nolockcheck", "--nodefault", "--nofirststartwizard", "-env:UserInstallation=file:///work/profile"];
/**
 * Every sheet as its own CSV (the last token, -1, is LibreOffice >= 7.2's "all sheets"), cells
 * separated by tabs (9) rather than commas so that the text reads as words, UTF-8, formatted as
 * shown.
 */
const ALL_SHEETS = "csv:Text - txt - csv (StarCalc):9,34,UTF8,1,,0,false,true,false,false,false,-1";

/**
 * The text of an office document, by LibreOffice in the converter sandbox with the limits of an
 * office preview (time, memory, output size; documents past PREVIEW_OFFICE_MAX_BYTES are not
 * read). Word processing: its text export. Spreadsheets: every sheet's cells, sheets separated by
 * a form feed (sheet N is "page" N). Presentations: through PDF and pdftotext, one page per slide,
 * separated by a form feed. Rejects with the reason (MissingTool when LibreOffice is absent).
 */
export async function extractOfficeText(blobId: string, size: number, fileName: string, mime: string | null): Promise<string> {
  if (size > maxOfficeBytes()) throw new Error(`${size} bytes is more than the ${maxOfficeBytes()} an office document may have to be read`);
  const extension = /\.([A-Za-z0-9]{1,8})$/.exec(fileName)?.[1]?.toLowerCase() ?? "";
  const type = mime ?? "";
  return withWorkDir(async (dir) => {
    const input = await inputFor(blobId, fileName, dir);
    const convert = (target: string) => runSandboxed("LibreOffice", [...SOFFICE, "--convert-to", target, "--outdir", "/work/out", input.path], dir, limits(), input.binds);
    const base = path.join(dir, "out", path.basename(input.path).replace(/\.[^.]+$/, ""));
    if (SPREADSHEETS.has(extension) || SPREADSHEET_MIME.test(type)) {
      const said = await convert(ALL_SHEETS);
      // The sheets in the workbook's order, as LibreOffice names them while writing.
      const written = [...said.matchAll(/Writing sheet .* -> \/work\/out\/(.+\.csv)\s*$/gm)].map((m) => m[1]);
      const files = written.length > 0 ? written : (await fs.readdir(path.join(dir, "out"))).filter((f) => f.endsWith(".csv")).sort();
      const sheets = await Promise.all(files.map((f) => readOutput(path.join(dir, "out", f))));
      return sheets.join("\f");
    }
    if (PRESENTATIONS.has(extension) || PRESENTATION_MIME.test(type)) {
      await convert("pdf");
      await runSandboxed("pdftotext", ["-enc", "UTF-8", "/work/out/input.pdf", "/work/out/slides.txt"], dir, limits());
      // pdftotext ends every page with a form feed: the last one separates nothing.
      return (await readOutput(path.join(dir, "out", "slides.txt"))).replace(/\f$/, "");
    }
    await convert("txt:Text (encoded):UTF8");
    return readOutput(`${base}.txt`);
  });
}

/** The index keeps a million characters: a text is read up to 4 MB (UTF-8 takes up to 4 bytes a character). */
const MAX_READ_BYTES = 4_000_000;

async function readOutput(file: string): Promise<string> {
  const handle = await fs.open(file, "r").catch(() => {
    throw new Error("LibreOffice could not read this document (no text was written)");
  });
  try {
    const buffer = Buffer.alloc(Math.min(MAX_READ_BYTES, (await handle.stat()).size));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return new TextDecoder().decode(buffer.subarray(0, bytesRead)).replace(/^\uFEFF/, "").replace(/\uFFFD$/, "");
  } finally {
    await handle.close();
  }
}
