import "server-only";
import sharp from "sharp";
import { readUtf8Beginning } from "../texts/read-utf8";

/**
 * What a text shows to a caller without the right to its original (a preview-only or
 * single-download link, a reader without the download right): its first screen, at most 80
 * lines of its first 4 KiB, and as a picture, like a PDF's pages, never as text. A screen of the
 * preview frame holds about 50 lines; 80 lines and 4 KiB show the head of a letter, the header
 * and first rows of a CSV or the start of a log, enough to know the file, while the rest (what a
 * single download sells, what a preview-only link keeps back) never leaves: every visit sees the
 * same first screen.
 */
export const TEXT_SCREEN_BYTES = 4096;
export const TEXT_SCREEN_LINES = 80;
/** The picture's width: about 118 columns of monospace at 10 pt; longer lines wrap. */
const WIDTH = 960;
const MARGIN = 16;

/** The first screen of a text as a PNG picture, with "…" under it when the text goes on. */
export async function renderTextScreen(blobId: string | null, size: number): Promise<Buffer> {
  const text = await readUtf8Beginning(blobId, size, TEXT_SCREEN_BYTES);
  const lines = text
    // A multi-byte character cut by the 4 KiB boundary decodes as U+FFFD: drop it.
    .replace(/\uFFFD$/, "")
    .replace(/\r\n?/g, "\n")
    // Control characters are not text (and Pango's markup refuses them).
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, "")
    .split("\n");
  const shown = lines.slice(0, TEXT_SCREEN_LINES);
  const goesOn = size > TEXT_SCREEN_BYTES || lines.length > TEXT_SCREEN_LINES;
  const body = `${shown.join("\n")}${goesOn ? "\n…" : ""}`;
  const markup = `<span foreground="#18181b">${escapeMarkup(body.trim() ? body : " ")}</span>`;
  const { data, info } = await sharp({ text: { text: markup, font: "monospace 10", width: WIDTH, dpi: 96, wrap: "char", rgba: true } })
    .flatten({ background: "#ffffff" })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
    .extend({ top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN + Math.max(0, WIDTH - info.width), background: "#ffffff" })
    .png()
    .toBuffer();
}

const escapeMarkup = (text: string) => text.replace(/[&<>]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;" })[c]!);
