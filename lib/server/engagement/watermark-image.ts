import "server-only";
import sharp from "sharp";
import type { Rendition } from "../previews/serve-rendition";
import { cleanWatermarkText } from "./watermark-text";

/** Degrees the lines climb from left to right. */
const ANGLE = -30;

/**
 * The watermark drawn over a page image: the line repeated across the whole page along a
 * diagonal, in a translucent red that reads on white and on photos alike without hiding what is
 * under it. An SVG overlay, rasterised and composited by sharp (libuv's threads, not the event
 * loop). The text is escaped for XML and cleared of control and bidi characters.
 */
export function watermarkOverlay(width: number, height: number, line: string): Buffer {
  const size = Math.max(12, Math.round(Math.max(width, height) / 45));
  const text = escapeXml(cleanWatermarkText(line));
  const row = Array.from({ length: 4 }, () => text).join("\u2003\u2003\u2003");
  // Rows over the page's diagonal both ways, so the turned block covers every corner.
  const reach = Math.ceil(Math.hypot(width, height));
  const rows: string[] = [];
  for (let y = -reach, i = 0; y <= reach; y += size * 5, i++) {
    // Each row shifted along its line, so the lines do not stack into columns.
    rows.push(`<text x="${-reach + ((i * size * 7) % (size * 21))}" y="${y}">${row}${"\u2003\u2003\u2003"}${row}</text>`);
  }
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<g transform="translate(${width / 2} ${height / 2}) rotate(${ANGLE})" font-family="DejaVu Sans, Noto Sans, Liberation Sans, sans-serif" font-size="${size}" font-weight="bold" fill="#c81e1e" fill-opacity="0.3">` +
    rows.join("") +
    `</g></svg>`;
  return Buffer.from(svg);
}

/** The rendition with the watermark drawn into its pixels, in the same format. */
export async function watermarkRendition(rendition: Rendition, line: string): Promise<Rendition> {
  const { width, height } = await sharp(rendition.bytes).metadata();
  if (!width || !height) return rendition;
  const drawn = sharp(rendition.bytes).composite([{ input: watermarkOverlay(width, height, line), top: 0, left: 0 }]);
  const bytes = rendition.type === "image/webp" ? await drawn.webp({ quality: 82 }).toBuffer() : await drawn.png().toBuffer();
  return { bytes, type: rendition.type };
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!);
}
