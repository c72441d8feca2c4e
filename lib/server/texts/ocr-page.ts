import "server-only";
import fs from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { defaultMemoryBytes, isInstalled, MissingTool, runSandboxed, type SandboxLimits, type ToolName } from "../previews/converter";

/**
 * One page of OCR, each step in the converter sandbox with its own ceilings: a page is rendered
 * (pdftoppm) or decoded (sharp, with a pixel limit) to a JPEG in the work folder, then read by
 * Tesseract, which writes its text and the page as a PDF with an invisible text layer.
 */

/** Scans are read at 300 dpi: what Tesseract is trained for, and a page size kept exactly. */
const DPI = 300;
/** An image past this is not decoded, as for thumbnails (a 600 dpi A4 scan is 35 megapixels). */
const MAX_IMAGE_PIXELS = 50_000_000;
/** A page that takes longer is given up (its text stays empty); OCR_PAGE_TIMEOUT_MS sets it. */
const pageTimeoutMs = () => Number(process.env.OCR_PAGE_TIMEOUT_MS ?? 120_000);

/** Tesseract runs one thread: the machine's other cores serve requests and other lanes. */
const tesseractLimits = (): SandboxLimits => ({
  timeoutMs: pageTimeoutMs(),
  maxOutputBytes: 100 * 1024 * 1024,
  memoryBytes: defaultMemoryBytes(1024),
  env: { OMP_THREAD_LIMIT: "1" },
});
const popplerLimits = (): SandboxLimits => ({ timeoutMs: 60_000, maxOutputBytes: 200 * 1024 * 1024, memoryBytes: defaultMemoryBytes(1024) });

/** The tools OCR of this kind of input needs, in the order they are looked for. */
export function missingOcrTool(kind: "image" | "pdf"): ToolName | null {
  const needed: ToolName[] = kind === "pdf" ? ["bubblewrap", "tesseract", "pdftoppm", "pdfseparate", "pdfunite"] : ["bubblewrap", "tesseract", "pdfunite"];
  return needed.find((tool) => !isInstalled(tool)) ?? null;
}

/** The languages Tesseract has data for here (asked once per process). */
export async function installedOcrLanguages(): Promise<Set<string>> {
  const shared = globalThis as unknown as { __coffreOcrLanguages?: Promise<Set<string>> };
  shared.__coffreOcrLanguages ??= (async () => {
    if (!isInstalled("tesseract")) throw new MissingTool("tesseract");
    const dir = await fs.mkdtemp(path.join(process.env.PREVIEW_WORK_DIR ?? (await import("node:os")).tmpdir(), "coffre-ocr-"));
    try {
      const said = await runSandboxed("tesseract", ["--list-langs"], dir, { ...tesseractLimits(), timeoutMs: 30_000 });
      return new Set(said.split("\n").slice(1).map((line) => line.trim()).filter((code) => /^[a-z_]+$/.test(code) && code !== "osd"));
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  })().catch((error: unknown) => {
    shared.__coffreOcrLanguages = undefined;
    throw error;
  });
  return shared.__coffreOcrLanguages;
}

/** Page `page` (1-based) of the PDF at /work/<pdf> rendered to /work/<name>.jpg. */
export async function renderPdfPageImage(dir: string, pdf: { path: string; binds: { source: string; target: string }[] }, page: number, name: string): Promise<string> {
  await runSandboxed(
    "pdftoppm",
    ["-r", String(DPI), "-f", String(page), "-l", String(page), "-jpeg", "-jpegopt", "quality=85", "-singlefile", pdf.path, `/work/${name}`],
    dir,
    popplerLimits(),
    pdf.binds,
  );
  return `${name}.jpg`;
}

/** Page `page` (0-based: TIFF pages) of an image, turned upright, as /work/<name>.jpg, and its resolution. */
export async function imagePageToJpeg(dir: string, source: string, page: number, name: string): Promise<{ image: string; dpi: number }> {
  const input = sharp(source, { page, limitInputPixels: MAX_IMAGE_PIXELS });
  const { density } = await input.metadata();
  await input.rotate().flatten({ background: "#ffffff" }).jpeg({ quality: 90 }).toFile(path.join(dir, `${name}.jpg`));
  // Tesseract sizes the PDF page from the resolution; a photograph without one is taken at 300 dpi.
  return { image: `${name}.jpg`, dpi: density && density >= 70 ? Math.round(density) : DPI };
}

/** How many pages an image holds (the pages of a TIFF; one for every other format). */
export async function imagePageCount(source: string): Promise<number> {
  const { pages, format } = await sharp(source, { limitInputPixels: MAX_IMAGE_PIXELS }).metadata();
  return format === "tiff" ? Math.max(1, pages ?? 1) : 1;
}

/**
 * Tesseract on /work/<image>: its text, and /work/<name>.pdf (the image with the text invisible
 * over it). Rejects with the reason (time, memory, an image it cannot read).
 */
export async function ocrImage(dir: string, image: string, languages: string, dpi: number, name: string): Promise<{ text: string; pdf: string }> {
  await runSandboxed("tesseract", [`/work/${image}`, `/work/${name}`, "-l", languages, "--dpi", String(dpi), "txt", "pdf"], dir, tesseractLimits());
  const text = await fs.readFile(path.join(dir, `${name}.txt`), "utf8");
  // Tesseract ends a page with a form feed; pages are separated by the caller.
  return { text: text.replace(/\f/g, "").trim(), pdf: `${name}.pdf` };
}

/** Pages `first`..`last` (1-based) of the PDF as /work/<stem>-<n>.pdf, unchanged. */
export async function separatePdfPages(dir: string, pdf: { path: string; binds: { source: string; target: string }[] }, first: number, last: number, stem: string): Promise<void> {
  await runSandboxed("pdfseparate", ["-f", String(first), "-l", String(last), pdf.path, `/work/${stem}-%d.pdf`], dir, popplerLimits(), pdf.binds);
}

/** The PDFs (names in the work folder, or bound inputs) joined into /work/<output>. */
export async function unitePdfs(dir: string, parts: string[], output: string, binds: { source: string; target: string }[] = []): Promise<void> {
  await runSandboxed("pdfunite", [...parts.map((part) => (part.startsWith("/work/") ? part : `/work/${part}`)), `/work/${output}`], dir, popplerLimits(), binds);
}
