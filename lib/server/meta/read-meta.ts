import "server-only";
import sharp from "sharp";
import { getBlobStore } from "@/lib/server/blobs/stores";
import { contentKind } from "../previews/formats";
import { PdfTooHeavy, PdfTooLarge, PdfUnreadable, readPdfInfo } from "../previews/pdf-document";
import { WorkerLimitExceeded, WorkerTaskError } from "../workers/worker-pool";
import { cleanMeta, cleanText, type FileMeta } from "./clean-meta";
import { readAll, runMetaTask } from "./meta-pool";

/** Past this many entries an archive is no office document of ours to read (a bomb of names). */
const MAX_ZIP_ENTRIES = 20_000;
/** core.xml, app.xml and meta.xml are a few kilobytes; more is not read. */
const MAX_PROPERTIES_BYTES = 1024 * 1024;
/** EXIF sits in a JPEG's or PNG's first segments (JPEG's APP1 is at most 64 KB): only this much of them is read. */
const IMAGE_HEAD_BYTES = 512 * 1024;
/** WebP, TIFF, AVIF and GIF may keep it anywhere, and sharp reads no truncated one: read whole up to this size. */
const WHOLE_IMAGE_BYTES = 32 * 1024 * 1024;
const HEAD_FIRST = new Set(["image/jpeg", "image/png"]);

const OOXML = /^(docx|docm|dotx|xlsx|xlsm|xltx|pptx|pptm|potx)$/;
const ODF = /^(odt|ods|odp|odg|ott|ots|otp)$/;

/** The content itself is the cause (damaged, hostile, over a limit): trying again reads the same bytes. */
export class UnreadableContent extends Error {}

export type MetaSource = { blobId: string; size: number; mime: string | null; name: string };

/**
 * The metadata of a version's content (api.md, "File metadata"): the PDF information dictionary
 * and page count, office documents' core properties, images' EXIF. The parsing happens in workers
 * with ceilings (PDF worker, metadata worker); a file they cannot read throws, and what one of
 * them returns is cleaned (clean-meta.ts). Kinds without metadata answer {}.
 */
export async function readMeta(source: MetaSource): Promise<FileMeta> {
  try {
    return await metaOf(source);
  } catch (error) {
    const content = [PdfTooHeavy, PdfTooLarge, PdfUnreadable, WorkerLimitExceeded, WorkerTaskError, UnreadableContent].some((type) => error instanceof type);
    throw content ? new UnreadableContent(error instanceof Error ? error.message : String(error)) : error;
  }
}

async function metaOf(source: MetaSource): Promise<FileMeta> {
  if (source.size === 0) return {};
  const kind = contentKind(source.mime, source.name);
  if (kind === "pdf") return pdfMeta(source);
  if (kind === "image") return imageMeta(source);
  const family = officeFamily(source);
  if (family) {
    const raw = await runMetaTask<Record<string, unknown>>("office", { size: source.size, family, limits: { maxEntries: MAX_ZIP_ENTRIES, maxEntryBytes: MAX_PROPERTIES_BYTES } }, { id: source.blobId, size: source.size });
    return cleanMeta(raw);
  }
  return {};
}

async function pdfMeta(source: MetaSource): Promise<FileMeta> {
  const { pageCount, info } = await readPdfInfo({ blobId: source.blobId, size: source.size });
  return cleanMeta({
    title: info.Title,
    author: info.Author,
    subject: info.Subject,
    keywords: info.Keywords,
    creator: info.Creator,
    producer: info.Producer,
    date: info.CreationDate,
    pages: pageCount,
  });
}

/**
 * sharp reads the EXIF block from the image's head, or from the whole of a small image of another
 * format (in libuv's threads, as previews do), the metadata worker parses it. An image without
 * EXIF has no metadata.
 */
async function imageMeta(source: MetaSource): Promise<FileMeta> {
  const mime = (source.mime ?? "").toLowerCase();
  if (mime.includes("svg")) return {};
  const length = HEAD_FIRST.has(mime) ? Math.min(source.size, IMAGE_HEAD_BYTES) : source.size;
  if (length > WHOLE_IMAGE_BYTES) return {};
  const bytes = await readAll(await getBlobStore().read(source.blobId, { start: 0, end: length - 1 }));
  const { exif } = await sharp(bytes, { failOn: "none", limitInputPixels: false })
    .metadata()
    .catch((error: unknown) => {
      throw new UnreadableContent(`sharp: ${error instanceof Error ? error.message : String(error)}`);
    });
  if (!exif || exif.length === 0) return {};
  const raw = await runMetaTask<{ date?: unknown; author?: unknown; make?: unknown; model?: unknown }>("exif", { exif: new Uint8Array(exif) });
  const camera = [cleanText(raw.make), cleanText(raw.model)].filter((part) => part !== undefined);
  // Many cameras repeat the make in the model ("Canon" "Canon EOS 5D").
  const named = camera.length === 2 && camera[1].toLowerCase().startsWith(camera[0].toLowerCase()) ? camera[1] : camera.join(" ");
  return cleanMeta({ date: raw.date, author: raw.author, camera: named });
}

function officeFamily({ mime, name }: MetaSource): "ooxml" | "odf" | null {
  const extension = name.includes(".") ? name.slice(name.lastIndexOf(".") + 1).toLowerCase() : "";
  const type = (mime ?? "").toLowerCase();
  if (type.includes("openxmlformats-officedocument") || OOXML.test(extension)) return "ooxml";
  if (type.includes("opendocument") || ODF.test(extension)) return "odf";
  return null;
}
