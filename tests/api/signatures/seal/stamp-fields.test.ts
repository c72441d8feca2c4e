import { degrees, PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/server/errors";
import { inspectPdf } from "@/lib/server/signatures/seal/inspect-pdf";
import { type Stamp, stampFields } from "@/lib/server/signatures/seal/stamp-fields";
import { makePdf, onePagePdf, signaturePng, threePagePdf } from "../../../helpers/pdf-fixtures";
import { pdfFonts, pdfText, pdfWords, renderPage } from "../../../helpers/pdfsig";

const box = { x: 100, y: 200, width: 220, height: 40 };

/** An A4 page with nothing on it, turned by `rotate`. */
async function blankPage(rotate: number) {
  const doc = await PDFDocument.create();
  doc.addPage([595.28, 841.89]).setRotation(degrees(rotate));
  return doc.save();
}

/** The centre of a word, in points from the bottom-left of its page as shown. */
function centreOf(word: { xMin: number; xMax: number; yMin: number; yMax: number; pageHeight: number }) {
  return { x: (word.xMin + word.xMax) / 2, y: word.pageHeight - (word.yMin + word.yMax) / 2 };
}

function expectInside(point: { x: number; y: number }, b: { x: number; y: number; width: number; height: number }) {
  expect(point.x).toBeGreaterThan(b.x);
  expect(point.x).toBeLessThan(b.x + b.width);
  expect(point.y).toBeGreaterThan(b.y);
  expect(point.y).toBeLessThan(b.y + b.height);
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe("stampFields", () => {
  it("draws text, a drawn signature and checkboxes on the pages named, and keeps the pages", async () => {
    const png = await signaturePng();
    const stamps: Stamp[] = [
      { page: 1, ...box, kind: "text", text: "Jane Q. Public" },
      { page: 2, ...box, kind: "image", png },
      { page: 3, x: 60, y: 60, width: 20, height: 20, kind: "checkbox", checked: true },
      { page: 3, x: 120, y: 60, width: 20, height: 20, kind: "checkbox", checked: false },
    ];
    const stamped = await stampFields(await threePagePdf(), stamps);
    expect(await inspectPdf(stamped)).toEqual(await inspectPdf(await threePagePdf()));

    const words = await pdfWords(stamped);
    const jane = words.find((w) => w.text === "Jane");
    expect(jane?.page).toBe(1);
    expectInside(centreOf(jane!), box);
    expect(words.filter((w) => w.page === 2).map((w) => w.text)).toEqual(["Page", "2", "of", "3"]);

    // The drawn signature covers part of its box on page 2, and nothing outside it.
    const page2 = await renderPage(stamped, 2);
    expect(page2.darkness(box)).toBeGreaterThan(0.02);
    expect(page2.darkness({ x: 100, y: 300, width: 220, height: 40 })).toBe(0);

    // A checked box has a tick inside its border; an unchecked one is an empty square.
    const page3 = await renderPage(stamped, 3);
    const inner = (x: number) => ({ x: x + 4, y: 64, width: 12, height: 12 });
    expect(page3.darkness(inner(60))).toBeGreaterThan(0.15);
    expect(page3.darkness(inner(120))).toBe(0);
    expect(page3.darkness({ x: 119, y: 59, width: 22, height: 22 })).toBeGreaterThan(0.05);
  });

  it("places stamps where a reader shows the box on rotated and cropped pages", async () => {
    // pdftotext -bbox reports rotated pages unturned: read the rendered page instead.
    for (const rotate of [0, 90, 180, 270]) {
      const blank = await makePdf({ rotate, pages: 2 });
      const stamped = await stampFields(blank, [{ page: 2, ...box, kind: "text", text: "Zebra" }]);
      const before = await renderPage(blank, 2);
      const after = await renderPage(stamped, 2);
      expect(before.darkness(box), `rotation ${rotate}`).toBe(0);
      expect(after.darkness(box), `rotation ${rotate}`).toBeGreaterThan(0.004);
      // Only the box changed: the ink of the stamp is inside it, and upright (wider than tall).
      const ink = (await renderPage(await stampFields(await blankPage(rotate), [{ page: 1, ...box, kind: "text", text: "Zebra" }]), 1)).inkBounds();
      expect(ink, `rotation ${rotate}`).not.toBeNull();
      expectInside({ x: ink!.x + ink!.width / 2, y: ink!.y + ink!.height / 2 }, box);
      expect(ink!.x).toBeGreaterThanOrEqual(box.x);
      expect(ink!.x + ink!.width).toBeLessThanOrEqual(box.x + box.width + 1);
      expect(ink!.width, `rotation ${rotate}`).toBeGreaterThan(ink!.height * 1.5);
    }
    const doc = await PDFDocument.load(await onePagePdf());
    doc.getPage(0).setCropBox(50, 80, 400, 500);
    const stamped = await stampFields(await doc.save(), [{ page: 1, ...box, kind: "text", text: "Cropped" }]);
    const word = (await pdfWords(stamped)).find((w) => w.text === "Cropped");
    expect(word?.pageHeight).toBe(500);
    expectInside(centreOf(word!), box);
  });

  it("writes typed signatures in a script font and any script's letters in Noto Sans", async () => {
    const stamped = await stampFields(await onePagePdf(), [
      { page: 1, ...box, kind: "text", text: "Zoë Łukasiewicz", font: "script" },
      { page: 1, x: 100, y: 400, width: 300, height: 30, kind: "text", text: "Ελένη Иванова Nguyễn" },
    ]);
    const fonts = await pdfFonts(stamped);
    expect(fonts.some((f) => f.includes("DancingScript"))).toBe(true);
    expect(fonts.some((f) => f.includes("NotoSans"))).toBe(true);
    const text = await pdfText(stamped);
    expect(text).toContain("Zoë Łukasiewicz");
    expect(text).toContain("Ελένη Иванова Nguyễn");
  });

  it("wraps and shrinks a long answer into its box, cutting what cannot fit", async () => {
    const answer = "The quick brown fox jumps over the lazy dog. ".repeat(4).trim();
    const tall = { x: 100, y: 500, width: 200, height: 80 };
    const stamped = await stampFields(await onePagePdf(), [{ page: 1, ...tall, kind: "text", text: answer }]);
    const words = (await pdfWords(stamped)).filter((w) => w.pageHeight - w.yMax < 600 && w.pageHeight - w.yMin > 480);
    expect(words.map((w) => w.text).join(" ")).toBe(answer);
    for (const word of words) expectInside(centreOf(word), tall);

    const tiny = { x: 100, y: 300, width: 60, height: 8 };
    const cut = await stampFields(await onePagePdf(), [{ page: 1, ...tiny, kind: "text", text: answer }]);
    const shown = (await pdfText(cut)).replace(/\s+/g, " ");
    expect(shown).toContain("…");
    expect(shown).not.toContain("lazy dog. The quick brown fox jumps over the lazy dog.");
  });

  it("refuses a page the document does not have, a box without size and an image that is not a PNG", async () => {
    const pdf = await onePagePdf();
    const page = await rejection(stampFields(pdf, [{ page: 2, ...box, kind: "checkbox", checked: true }]));
    expect(page.status).toBe(400);
    expect(page.message).toContain("page 2");
    const size = await rejection(stampFields(pdf, [{ page: 1, ...box, width: 0, kind: "checkbox", checked: true }]));
    expect(size.status).toBe(400);
    const png = await rejection(stampFields(pdf, [{ page: 1, ...box, kind: "image", png: new TextEncoder().encode("GIF89a...") }]));
    expect(png.status).toBe(400);
    expect(png.message).toContain("not a valid PNG");
  });
});
