import "server-only";
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { getBlobStore } from "@/lib/server/blobs/stores";
import type { StoredBlob } from "@/lib/storage/blob-store";
import { defaultMemoryBytes, defaultTimeoutMs, runSandboxed, withWorkDir } from "./converter";
import { inputFor } from "./converted-input";

/** Office documents past this size get no preview (PREVIEW_OFFICE_MAX_BYTES). */
export const maxOfficeBytes = () => Number(process.env.PREVIEW_OFFICE_MAX_BYTES ?? 100 * 1024 * 1024);
/** The PDF LibreOffice writes may not grow past this. */
const MAX_PDF_OUTPUT = 200 * 1024 * 1024;
/**
 * A conversion's limits. Ordinary documents convert in seconds within a few hundred MB; past a
 * minute or 1 GiB the document is a bomb (or too large to preview), and the previews lane of the
 * job queue (lib/server/jobs/lanes.ts) is free again.
 */
const officeLimits = () => ({ timeoutMs: defaultTimeoutMs(60_000), maxOutputBytes: MAX_PDF_OUTPUT, memoryBytes: defaultMemoryBytes(1024) });

/**
 * An office document (docx, xlsx, pptx, odt, ods, odp, ...) converted to PDF by LibreOffice
 * headless, in the converter sandbox, with its own throwaway profile; the PDF is stored as a
 * blob (the rendition the existing PDF path then pages and thumbnails). Rejects with the reason.
 */
export async function officeToPdf(blobId: string, size: number, fileName: string): Promise<StoredBlob> {
  if (size > maxOfficeBytes()) throw new Error(`${size} bytes is more than the ${maxOfficeBytes()} an office preview takes`);
  return withWorkDir(async (dir) => {
    const input = await inputFor(blobId, fileName, dir);
    await runSandboxed(
      "LibreOffice",
      ["--headless", "--norestore", "--nolockcheck", "--nodefault", "--nofirststartwizard", "-env:UserInstallation=file:///work/profile", "--convert-to", "pdf", "--outdir", "/work/out", input.path],
      dir,
      officeLimits(),
      input.binds,
    );
    const pdf = path.join(dir, "out", `${path.basename(input.path).replace(/\.[^.]+$/, "")}.pdf`);
    const stat = await fs.stat(pdf).catch(() => null);
    if (!stat || stat.size === 0) throw new Error("LibreOffice could not read this document (no PDF was made)");
    return getBlobStore().put(createReadStream(pdf));
  });
}
