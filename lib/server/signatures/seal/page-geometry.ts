import "server-only";
import type { PDFPage } from "pdf-lib";

/**
 * A page as a reader shows it: the CropBox (the visible area), turned by /Rotate. Field
 * coordinates (api.md: PDF points from the bottom-left, as pdf.js shows the page in the builder)
 * are in this displayed frame; `toUser` maps them to the page's own user space, where pdf-lib
 * draws, as the matrix [a b c d e f] of a `cm` operator.
 */
export type PageGeometry = {
  width: number;
  height: number;
  rotation: 0 | 90 | 180 | 270;
  toUser: [number, number, number, number, number, number];
};

export function pageGeometry(page: PDFPage): PageGeometry {
  const box = page.getCropBox();
  const rotation = normaliseRotation(page.getRotation().angle);
  const { x, y, width: w, height: h } = box;
  switch (rotation) {
    case 90: // shown turned clockwise: displayed (X, Y) is user (x + w - Y, y + X)
      return { width: h, height: w, rotation, toUser: [0, 1, -1, 0, x + w, y] };
    case 180:
      return { width: w, height: h, rotation, toUser: [-1, 0, 0, -1, x + w, y + h] };
    case 270: // shown turned anticlockwise: displayed (X, Y) is user (x + Y, y + h - X)
      return { width: h, height: w, rotation, toUser: [0, -1, 1, 0, x, y + h] };
    default:
      return { width: w, height: h, rotation: 0, toUser: [1, 0, 0, 1, x, y] };
  }
}

/** /Rotate must be a multiple of 90 (ISO 32000); anything else is read as the nearest one. */
function normaliseRotation(angle: number): PageGeometry["rotation"] {
  const quarter = Math.round((Number.isFinite(angle) ? angle : 0) / 90);
  return ((((quarter % 4) + 4) % 4) * 90) as PageGeometry["rotation"];
}
