/**
 * Real verification of signed PDFs with poppler's `pdfsig` (no mocks). pdfsig exits 0 even on
 * "Digest Mismatch" (environment.md, trap 12): callers assert on the text this returns.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

async function inTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "coffre-pdfsig-"));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * pdfsig's report on `bytes`. With `trustCaPem`, that CA is imported into a fresh NSS database
 * (`certutil -A -t "CT,C,C"`) so a chain to it reads "Certificate is Trusted.".
 */
export async function verifyPdf(bytes: Uint8Array, options: { trustCaPem?: string } = {}): Promise<string> {
  return inTempDir(async (dir) => {
    const nss = path.join(dir, "nss");
    await mkdir(nss);
    await run("certutil", ["-N", "-d", `sql:${nss}`, "--empty-password"]);
    if (options.trustCaPem) {
      await writeFile(path.join(dir, "ca.pem"), options.trustCaPem);
      await run("certutil", ["-A", "-d", `sql:${nss}`, "-n", "coffre", "-t", "CT,C,C", "-i", path.join(dir, "ca.pem")]);
    }
    const file = path.join(dir, "file.pdf");
    await writeFile(file, bytes);
    const { stdout, stderr } = await run("pdfsig", ["-nssdir", `sql:${nss}`, file]).catch((error: { stdout?: string; stderr?: string }) => ({
      stdout: error.stdout ?? "",
      stderr: error.stderr ?? "",
    }));
    return `${stdout}${stderr}`;
  });
}

/** The text of a PDF as `pdftotext -layout` reads it. */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  return inTempDir(async (dir) => {
    const file = path.join(dir, "file.pdf");
    await writeFile(file, bytes);
    const { stdout } = await run("pdftotext", ["-layout", "-enc", "UTF-8", file, "-"], { maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  });
}

/** `pdfinfo` as key → value (Pages, Page size, Encrypted...). */
export async function pdfInfo(bytes: Uint8Array): Promise<Record<string, string>> {
  return inTempDir(async (dir) => {
    const file = path.join(dir, "file.pdf");
    await writeFile(file, bytes);
    const { stdout } = await run("pdfinfo", [file]);
    const info: Record<string, string> = {};
    for (const line of stdout.split("\n")) {
      const at = line.indexOf(":");
      if (at > 0) info[line.slice(0, at).trim()] = line.slice(at + 1).trim();
    }
    return info;
  });
}

/** The fonts embedded in a PDF, as `pdffonts` names them. */
export async function pdfFonts(bytes: Uint8Array): Promise<string[]> {
  return inTempDir(async (dir) => {
    const file = path.join(dir, "file.pdf");
    await writeFile(file, bytes);
    const { stdout } = await run("pdffonts", [file]);
    return stdout.split("\n").slice(2).map((l) => l.split(/\s+/)[0]).filter(Boolean);
  });
}

export type PdfWord = { page: number; text: string; xMin: number; yMin: number; xMax: number; yMax: number; pageWidth: number; pageHeight: number };

/** Every word with its box, as `pdftotext -bbox` reads it: points from the top-left of the page as shown. */
export async function pdfWords(bytes: Uint8Array): Promise<PdfWord[]> {
  return inTempDir(async (dir) => {
    const file = path.join(dir, "file.pdf");
    await writeFile(file, bytes);
    const { stdout } = await run("pdftotext", ["-bbox", "-cropbox", "-enc", "UTF-8", file, "-"], { maxBuffer: 64 * 1024 * 1024 });
    const words: PdfWord[] = [];
    let page = 0;
    let pageWidth = 0;
    let pageHeight = 0;
    for (const line of stdout.split("\n")) {
      const p = /<page width="([\d.]+)" height="([\d.]+)">/.exec(line);
      if (p) {
        page += 1;
        pageWidth = Number(p[1]);
        pageHeight = Number(p[2]);
        continue;
      }
      const w = /<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">(.*)<\/word>/.exec(line);
      if (w) {
        const text = w[5].replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, "&");
        words.push({ page, text, xMin: Number(w[1]), yMin: Number(w[2]), xMax: Number(w[3]), yMax: Number(w[4]), pageWidth, pageHeight });
      }
    }
    return words;
  });
}

/**
 * One page rendered by `pdftoppm` at 72 dpi (one pixel per point), as a function telling how
 * dark the area of a box is (0 white … 1 black), the box in points from the bottom-left as shown.
 */
export async function renderPage(bytes: Uint8Array, page: number) {
  const png = await inTempDir(async (dir) => {
    const file = path.join(dir, "file.pdf");
    await writeFile(file, bytes);
    await run("pdftoppm", ["-f", String(page), "-l", String(page), "-r", "72", "-gray", "-png", "-singlefile", file, path.join(dir, "page")]);
    const { readFile } = await import("node:fs/promises");
    return readFile(path.join(dir, "page.png"));
  });
  const { default: sharp } = await import("sharp");
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  return {
    width: info.width,
    height: info.height,
    darkness(box: { x: number; y: number; width: number; height: number }): number {
      const x0 = Math.max(0, Math.round(box.x));
      const x1 = Math.min(info.width, Math.round(box.x + box.width));
      const y0 = Math.max(0, Math.round(info.height - (box.y + box.height)));
      const y1 = Math.min(info.height, Math.round(info.height - box.y));
      let sum = 0;
      let count = 0;
      for (let y = y0; y < y1; y++) {
        for (let x = x0; x < x1; x++) {
          sum += 255 - data[(y * info.width + x) * info.channels];
          count++;
        }
      }
      return count ? sum / count / 255 : 0;
    },
    /** The smallest box (points, from the bottom-left) holding every dark pixel of the page, or null. */
    inkBounds(): { x: number; y: number; width: number; height: number } | null {
      let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
      for (let y = 0; y < info.height; y++) {
        for (let x = 0; x < info.width; x++) {
          if (data[(y * info.width + x) * info.channels] > 128) continue;
          [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
        }
      }
      return x1 < 0 ? null : { x: x0, y: info.height - y1 - 1, width: x1 - x0 + 1, height: y1 - y0 + 1 };
    },
  };
}
