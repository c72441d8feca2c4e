import "server-only";
import type { Ctx } from "../context";
import { FILE_EVENT, recordEvent } from "../events/record-event";
import { readUtf8Beginning } from "../texts/read-utf8";
import { createFileToken } from "../tokens/create-file-token";
import { contentKind, type ContentKind } from "./formats";
import { findRendition } from "./find-rendition";
import { getPreviewAccessOrThrow } from "./preview-access";
import { renditionPages } from "./serve-rendition";

/** A text preview shows the beginning of the file only (to callers who may have the original; others see its first screen, text-rendition.ts). */
export const TEXT_PREVIEW_BYTES = 256 * 1024;

/**
 * The page's own policy: no script at all; the file is shown only through elements that load it
 * from our content route (images, media, a sandboxed frame for HTML). Text is
 * escaped into a <pre>, never inserted as markup.
 */
const PAGE_CSP =
  "default-src 'none'; img-src 'self' data:; media-src 'self'; frame-src 'self'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'";

const STYLE = `html,body{margin:0;height:100%;background:#f4f4f5;font:14px system-ui,sans-serif;color:#18181b}
main{height:100%;display:flex;align-items:center;justify-content:center}
img,video{max-width:100%;max-height:100%;object-fit:contain}
iframe{border:0;width:100%;height:100%;background:#fff}
pre{box-sizing:border-box;margin:0;padding:16px;width:100%;height:100%;overflow:auto;background:#fff;white-space:pre-wrap;word-break:break-word;font:13px ui-monospace,monospace}
p{text-align:center}a{color:#1d4ed8}
.pages{height:100%;width:100%;overflow:auto;display:flex;flex-direction:column;align-items:center;gap:12px;padding:12px;box-sizing:border-box}
.page{max-width:100%;max-height:none;background:#fff;box-shadow:0 1px 4px rgba(0,0,0,.2)}`;

/**
 * GET /preview/(fileId): an HTML page for an iframe showing one version (read right; by session
 * or preview token): an image, a PDF's pages, a player for audio and video, the beginning of a
 * text file (a picture of its first screen for callers without the original), or a download
 * link for other formats. Records a preview event.
 *
 * Every frame of content in it is sandboxed. A PDF is therefore shown as rendered pages (no
 * browser shows a PDF inside a sandboxed frame), with a link opening the original in the
 * browser's own viewer, as a page of its own, for callers who may have the original.
 */
export async function renderPreviewPage(ctx: Ctx, versionId: number, token: string | undefined): Promise<Response> {
  const access = await getPreviewAccessOrThrow(ctx, versionId, token);
  const { file, version } = access;
  const kind = contentKind(version.mime, file.name);
  // An office document shows the pages of the PDF its previews job made, when there is one.
  const officePdf = kind === "office" && (await findRendition(ctx.db, version)) !== null;
  // The elements of the page load the content with a preview token, the caller's or a new one.
  const needsContentUrl = officePdf || (kind !== "office" && kind !== "other" && (access.originals ? kind !== "text" : kind === "image" || kind === "pdf" || kind === "text"));
  const contentToken = needsContentUrl ? (access.token ?? (await createFileToken({ ...ctx, actor: ctx.actor! }, version.id, "preview")).token) : null;
  const contentUrl = contentToken ? `/api/preview/${version.id}/content?token=${encodeURIComponent(contentToken)}` : "";
  const shown = { name: file.name, versionId: version.id, contentUrl, blobId: version.blobId, size: version.size };
  const pages = kind === "pdf" || officePdf ? await renditionPages(ctx.db, version.id) : 0;
  const body = officePdf ? pdfPages(shown, pages, "") : access.originals ? await bodyFor(kind, shown, pages) : await renditionBodyFor(kind, shown, pages);

  if (!access.counted) await recordEvent(ctx.db, ctx.request, { targetType: "file", targetId: file.id, versionId: version.id, type: FILE_EVENT.preview, actorId: access.actorId });
  const html = `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="referrer" content="no-referrer"><title>${escapeHtml(file.name)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
  return new Response(html, {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": PAGE_CSP,
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "no-referrer",
      "Cache-Control": "no-store",
    },
  });
}

type Shown = { name: string; versionId: number; contentUrl: string; blobId: string | null; size: number };

async function bodyFor(kind: ContentKind, shown: Shown, pages: number): Promise<string> {
  const name = escapeHtml(shown.name);
  const src = escapeHtml(shown.contentUrl);
  switch (kind) {
    case "image":
      return `<img src="${src}" alt="${name}">`;
    case "pdf":
      return pdfPages(shown, pages, `<p><a href="${src}" target="_blank" rel="noopener noreferrer">Open ${name}</a></p>`);
    case "html":
      // Shown as a page, but in a sandbox: no script, no access to our origin.
      return `<iframe sandbox src="${src}" title="${name}"></iframe>`;
    case "video":
      return `<video controls preload="metadata" src="${src}" aria-label="${name}"></video>`;
    case "audio":
      return `<audio controls preload="metadata" src="${src}" aria-label="${name}"></audio>`;
    case "text":
      return `<pre>${escapeHtml(await readUtf8Beginning(shown.blobId, shown.size, TEXT_PREVIEW_BYTES))}</pre>`;
    default:
      return `<p>${name}<br><a href="/api/file/${shown.versionId}/download" download>Download</a></p>`;
  }
}

/**
 * Without the original (a preview-only or single-download link, a reader without the download
 * right): images and PDF pages as renditions, a text as a picture of its first screen (never its
 * characters: the page would hand them out on every visit), nothing else.
 */
async function renditionBodyFor(kind: ContentKind, shown: Shown, pages: number): Promise<string> {
  const name = escapeHtml(shown.name);
  const src = escapeHtml(shown.contentUrl);
  if (kind === "image") return `<img src="${src}" alt="${name}">`;
  if (kind === "pdf") return pdfPages(shown, pages, "");
  if (kind === "text") return pdfPages(shown, 1, "");
  return `<p>${name}<br>No preview of this format.</p>`;
}

/** A PDF as images of its pages (renditions: `page` makes the content route render one). */
function pdfPages(shown: Shown, pages: number, before: string): string {
  const name = escapeHtml(shown.name);
  const src = escapeHtml(shown.contentUrl);
  const images = Array.from({ length: pages }, (_, i) => `<img class="page" src="${src}&amp;page=${i + 1}" alt="${name}, page ${i + 1}" loading="lazy">`);
  return `<div class="pages">${before}${images.join("")}</div>`;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}
