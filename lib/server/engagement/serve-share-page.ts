import "server-only";
import type { Ctx } from "../context";
import { AppError } from "../errors";
import type { ShareVisit } from "../links/resolve-link-visitor";
import { makeRendition } from "../previews/serve-rendition";
import { getPagedFileOrThrow } from "./share-pages";
import { watermarkRendition } from "./watermark-image";
import { isWatermarked, watermarkFor } from "./watermark-text";

/** The widths a page image is made at (`?w=`): phones ask for the smaller ones. */
export const PAGE_WIDTHS = [800, 1200, 1600] as const;
export type PageWidth = (typeof PAGE_WIDTHS)[number];

const HEADERS = {
  "X-Content-Type-Options": "nosniff",
  "Content-Security-Policy": "default-src 'none'; sandbox",
  "Referrer-Policy": "no-referrer",
  "Cross-Origin-Resource-Policy": "same-origin",
};

/**
 * GET /share/key/(key)/file/(fileId)/page/(page): one page rendered by the server as an image
 * (a PDF's or office document's page as PNG, an image as WebP), never the original bytes, at
 * most `width` pixels on its longer side. On a link with the watermark on, the visitor's email
 * (or address) and the time are drawn into the pixels and nothing is cached (the time changes).
 * A page past the last one: 404.
 */
export async function serveSharePage(ctx: Ctx, visit: ShareVisit, fileId: number, page: number, width: PageWidth): Promise<Response> {
  const { file, version, kind, share } = await getPagedFileOrThrow(ctx.db, visit, fileId);
  if (kind === "image" && page > 1) throw new AppError("not_found", "An image has one page");
  let rendition = await makeRendition(file, version, page, width);
  const watermarked = isWatermarked(share);
  if (watermarked) rendition = await watermarkRendition(rendition, await watermarkFor(ctx.db, share, visit, ctx.request.ip));
  return new Response(new Uint8Array(rendition.bytes), {
    headers: {
      ...HEADERS,
      "Content-Type": rendition.type,
      "Content-Length": String(rendition.bytes.length),
      "Cache-Control": watermarked ? "private, no-store" : "private, no-cache, no-transform",
    },
  });
}
