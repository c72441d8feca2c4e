import "server-only";
import { Readable } from "node:stream";
import { getBlobStore } from "@/lib/server/blobs/stores";
import type { Ctx } from "../context";
import { AppError } from "../errors";
import { attachmentDisposition } from "../downloads/content-disposition";
import { parseRange } from "../downloads/range";
import { inlineSafetyHeaders, servedType } from "../downloads/served-type";
import { findRendition } from "./find-rendition";
import { contentKind } from "./formats";
import { getPreviewAccessOrThrow } from "./preview-access";
import { serveRendition } from "./serve-rendition";

const pageOf = (req: Request) => {
  const page = Number(new URL(req.url).searchParams.get("page") ?? 1);
  return Number.isInteger(page) && page >= 1 ? page : 1;
};

/**
 * GET /preview/(fileId)/content?token=: the bytes the preview page shows (image, PDF, media,
 * sandboxed HTML), inline, with byte ranges for media seeking. The original needs the download
 * right (preview-access); without it, and whenever a PDF page is asked for (`page`, the preview
 * page's images), a rendition instead. A preview token only, as the elements of the page cannot
 * send an Authorization header; the preview event is the page's.
 */
export async function servePreviewContent(ctx: Ctx, versionId: number, token: string, req: Request): Promise<Response> {
  const { file, version: original, originals } = await getPreviewAccessOrThrow(ctx, versionId, token);
  const kind = contentKind(original.mime, file.name);
  if (!originals || kind === "office" || new URL(req.url).searchParams.has("page")) return serveRendition(file, original, pageOf(req));
  // A video browsers cannot play is shown through the web-playable copy its previews job made.
  const rendition = kind === "video" ? await findRendition(ctx.db, original) : null;
  const version = rendition ? { ...original, blobId: rendition.blobId, size: rendition.size, mime: rendition.mime } : original;
  if (!version.blobId) throw new AppError("not_found", "The content of this file is missing");
  const size = version.size;
  const range = parseRange(req.headers.get("range"), size);
  if (range.kind === "unsatisfiable") {
    throw new AppError("range_not_satisfiable", `The range is outside the ${size} bytes of this file`, undefined, { "Content-Range": `bytes */${size}` });
  }
  const type = servedType(version.mime);
  const headers: Record<string, string> = {
    "Content-Type": type,
    "Content-Disposition": attachmentDisposition(file.name).replace(/^attachment/, "inline"),
    "Cache-Control": "private, no-cache, no-transform",
    "Accept-Ranges": "bytes",
    "Referrer-Policy": "no-referrer",
    ...inlineSafetyHeaders(type),
  };
  if (size === 0) return new Response(null, { status: 200, headers: { ...headers, "Content-Length": "0" } });
  const store = getBlobStore();
  if (range.kind === "whole") {
    const stream = await store.read(version.blobId);
    return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, { status: 200, headers: { ...headers, "Content-Length": String(size) } });
  }
  const stream = await store.read(version.blobId, { start: range.start, end: range.end });
  return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, {
    status: 206,
    headers: { ...headers, "Content-Length": String(range.end - range.start + 1), "Content-Range": `bytes ${range.start}-${range.end}/${size}` },
  });
}
