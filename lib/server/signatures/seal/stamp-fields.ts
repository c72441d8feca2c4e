import "server-only";
import {
  concatTransformationMatrix,
  popGraphicsState,
  pushGraphicsState,
  rgb,
  type PDFDocument,
  type PDFPage,
} from "pdf-lib";
import { AppError } from "@/lib/server/errors";
import { normaliseDrawnSignature } from "../drawn-signature";
import { stripActiveContent } from "./active-content";
import { FontStack } from "./fonts";
import { loadSignablePdf } from "./inspect-pdf";
import { pageGeometry } from "./page-geometry";

/**
 * One field's value drawn onto a page. Pages are 1-based; x, y, width, height are PDF points
 * from the bottom-left of the page as a reader shows it (api.md), the frame inspectPdf measures.
 */
export type Stamp = { page: number; x: number; y: number; width: number; height: number } & (
  | { kind: "image"; png: Uint8Array; caption?: string } // a drawn signature (PNG), fitted in the box keeping aspect
  | {
      kind: "text";
      text: string;
      /** "script" for a typed signature or initials (a handwriting-like font), "sans" (default) for a text field. */
      font?: "script" | "sans";
      /** The field's font size; the text still shrinks to fit its box. */
      size?: number | null;
      /** Under a signature or initials: the signer's name and the date (issue 31). */
      caption?: string;
    }
  | { kind: "checkbox"; checked: boolean }
);

const INK = rgb(0.06, 0.12, 0.3);
const PADDING = 2;
const MIN_TEXT_SIZE = 4;
const MAX_TEXT_SIZE = 14;

/**
 * Draws every stamp and returns the rewritten PDF. pdf-lib rewrites the whole file, which would
 * break any earlier signature (environment.md, trap 13): stamp everything first, seal once after.
 */
export async function stampFields(pdf: Uint8Array, stamps: Stamp[]): Promise<Uint8Array> {
  const doc = await loadSignablePdf(pdf);
  // Refused when the request was made; removed here too, for documents that came in before.
  stripActiveContent(doc);
  const pages = doc.getPages();
  const fonts = new Fonts(doc);
  for (const stamp of stamps) {
    const page = pages[stamp.page - 1];
    if (!Number.isInteger(stamp.page) || !page) {
      throw new AppError("invalid_request", `A field is on page ${stamp.page}, the document has ${pages.length}`);
    }
    if (![stamp.x, stamp.y, stamp.width, stamp.height].every(Number.isFinite) || stamp.width <= 0 || stamp.height <= 0) {
      throw new AppError("invalid_request", `A field on page ${stamp.page} has no valid box`);
    }
    // Drawn in the displayed frame: one matrix maps it onto the page's own space (rotation, CropBox).
    page.pushOperators(pushGraphicsState(), concatTransformationMatrix(...pageGeometry(page).toUser));
    await drawStamp(doc, page, stamp, fonts);
    page.pushOperators(popGraphicsState());
  }
  return doc.save();
}

async function drawStamp(doc: PDFDocument, page: PDFPage, stamp: Stamp, fonts: Fonts) {
  if (stamp.kind !== "checkbox" && stamp.caption) {
    const strip = await drawCaption(page, stamp, stamp.caption, await fonts.get("sans"));
    // The signature itself is drawn in what remains above its caption.
    stamp = { ...stamp, y: stamp.y + strip, height: stamp.height - strip, caption: undefined };
  }
  switch (stamp.kind) {
    case "image":
      return drawImage(doc, page, stamp);
    case "text":
      return stamp.font === "script" ? drawSignatureText(page, stamp, await fonts.get("script")) : drawFieldText(page, stamp, await fonts.get("sans"));
    case "checkbox":
      return drawCheckbox(page, stamp);
  }
}

async function drawImage(doc: PDFDocument, page: PDFPage, stamp: Stamp & { kind: "image" }) {
  // Checked again here: an image stored before its dimensions were limited must not reach pdf-lib's decoder.
  const png = await normaliseDrawnSignature(Buffer.from(stamp.png)).catch((error: Error) => {
    throw new AppError("invalid_request", `The signature image for page ${stamp.page} is not a valid PNG: ${error.message.replace(/^Invalid request: signature.image: /, "")}`);
  });
  const image = await doc.embedPng(png).catch(() => {
    throw new AppError("invalid_request", `The signature image for page ${stamp.page} is not a valid PNG`);
  });
  const scale = Math.min(stamp.width / image.width, stamp.height / image.height);
  const width = image.width * scale;
  const height = image.height * scale;
  page.drawImage(image, { x: stamp.x + (stamp.width - width) / 2, y: stamp.y + (stamp.height - height) / 2, width, height });
}

/** A typed signature: one line, as large as the box allows. */
async function drawSignatureText(page: PDFPage, stamp: Stamp & { kind: "text" }, font: FontStack) {
  const text = stamp.text.trim();
  if (!text) return;
  const room = Math.max(stamp.width - 2 * PADDING, 1);
  let size = Math.max(stamp.height * 0.7, MIN_TEXT_SIZE);
  const width = await font.widthOf(text, size);
  if (width > room) size = Math.max((size * room) / width, MIN_TEXT_SIZE);
  const drawn = await font.widthOf(text, size);
  const baseline = stamp.y + (stamp.height - size * 0.7) / 2;
  await font.draw(page, text, { x: stamp.x + Math.max((stamp.width - drawn) / 2, PADDING), y: baseline, size, color: INK });
}

/**
 * The caption at the bottom of the box (so it never leaves the page the box was checked
 * against): one line, or its parts (" · ") on lines of their own when one line would be too
 * small to read in a narrow box; returns the height it took.
 */
async function drawCaption(page: PDFPage, box: Stamp, caption: string, font: FontStack): Promise<number> {
  const room = Math.max(box.width - 2 * PADDING, 1);
  const fit = async (lines: string[]) => {
    let size = Math.min(Math.max(box.height * 0.14, MIN_TEXT_SIZE), 8);
    for (const line of lines) {
      const width = await font.widthOf(line, size);
      if (width > room) size = (size * room) / width;
    }
    return size;
  };
  let lines = [caption];
  let size = await fit(lines);
  if (size < 5 && caption.includes(" · ")) {
    lines = caption.split(" · ");
    size = await fit(lines);
  }
  size = Math.max(size, 3);
  const strip = Math.min(size * 1.25 * lines.length + size * 0.3, box.height / 2);
  page.drawLine({ start: { x: box.x + PADDING, y: box.y + strip }, end: { x: box.x + box.width - PADDING, y: box.y + strip }, thickness: 0.4, color: INK });
  let baseline = box.y + strip - size * 1.1;
  for (const line of lines) {
    await font.draw(page, line, { x: box.x + PADDING, y: baseline, size, color: INK });
    baseline -= size * 1.25;
  }
  return strip;
}

/** A text field's answer: wrapped, shrunk until it fits, cut (with "…") if even the smallest size does not. */
async function drawFieldText(page: PDFPage, stamp: Stamp & { kind: "text" }, font: FontStack) {
  if (!stamp.text.trim()) return;
  const room = Math.max(stamp.width - 2 * PADDING, 1);
  const height = Math.max(stamp.height - 2 * PADDING, 1);
  let size = Math.min(stamp.size ?? MAX_TEXT_SIZE, Math.max(height / 1.2, MIN_TEXT_SIZE));
  let lines = await font.wrap(stamp.text, room, size);
  while (lines.length * size * 1.2 > height && size > MIN_TEXT_SIZE) {
    size = Math.max(size - 0.5, MIN_TEXT_SIZE);
    lines = await font.wrap(stamp.text, room, size);
  }
  const fitting = Math.max(1, Math.floor(height / (size * 1.2)));
  if (lines.length > fitting) {
    lines = lines.slice(0, fitting);
    let last = lines[fitting - 1];
    while (last && (await font.widthOf(`${last}…`, size)) > room) last = [...last].slice(0, -1).join("");
    lines[fitting - 1] = `${last}…`;
  }
  const block = lines.length * size * 1.2;
  // Lines centred vertically in the box, the first at the top of the block.
  let baseline = stamp.y + (stamp.height + block) / 2 - size * 0.95;
  for (const line of lines) {
    await font.draw(page, line, { x: stamp.x + PADDING, y: baseline, size, color: INK });
    baseline -= size * 1.2;
  }
}

/** A square box, with a tick when checked (an unchecked box stays visible as empty). */
function drawCheckbox(page: PDFPage, stamp: Stamp & { kind: "checkbox" }) {
  const side = Math.min(stamp.width, stamp.height);
  const x = stamp.x + (stamp.width - side) / 2;
  const y = stamp.y + (stamp.height - side) / 2;
  const thickness = Math.max(side / 14, 0.75);
  page.drawRectangle({ x, y, width: side, height: side, borderColor: INK, borderWidth: thickness });
  if (!stamp.checked) return;
  const at = (fx: number, fy: number) => ({ x: x + side * fx, y: y + side * fy });
  page.drawLine({ start: at(0.2, 0.52), end: at(0.42, 0.25), thickness: thickness * 1.8, color: INK });
  page.drawLine({ start: at(0.42, 0.25), end: at(0.82, 0.8), thickness: thickness * 1.8, color: INK });
}

/** Font stacks embedded once per document, on first use. */
class Fonts {
  private readonly stacks = new Map<"sans" | "script", Promise<FontStack>>();
  constructor(private readonly doc: PDFDocument) {}
  get(family: "sans" | "script"): Promise<FontStack> {
    let stack = this.stacks.get(family);
    if (!stack) {
      stack = FontStack.create(this.doc, family);
      this.stacks.set(family, stack);
    }
    return stack;
  }
}
