import { createCanvas } from "@napi-rs/canvas";
import { eq } from "drizzle-orm";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { getDb } from "@/db";
import { versionTexts } from "@/db/schema";
import { extractText } from "@/lib/server/texts/extract-text";
import { ocrSlice } from "@/lib/server/texts/ocr-job";

/** A PNG of black text on white, large enough for Tesseract to read without doubt. */
export function renderTextPng(lines: string[]): Buffer {
  const canvas = createCanvas(1400, 140 + lines.length * 90);
  const context = canvas.getContext("2d");
  context.fillStyle = "#ffffff";
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.fillStyle = "#000000";
  context.font = "56px sans-serif";
  lines.forEach((line, i) => context.fillText(line, 60, 110 + i * 90));
  return canvas.toBuffer("image/png");
}

/**
 * A PDF whose pages are either text (a real text layer) or a picture of text (no text layer, as a
 * scanner makes them).
 */
export async function makeMixedPdf(pages: ({ text: string } | { png: Buffer })[]): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const content of pages) {
    const page = pdf.addPage([595, 842]);
    if ("text" in content) page.drawText(content.text, { x: 50, y: 760, size: 14, font });
    else {
      const image = await pdf.embedPng(content.png);
      const width = 500;
      page.drawImage(image, { x: 48, y: 600, width, height: (image.height / image.width) * width });
    }
  }
  return Buffer.from(await pdf.save());
}

/** Runs what the texts jobs run for one version: the extraction, then every OCR slice. */
export async function extractFully(versionId: number): Promise<void> {
  const db = await getDb();
  await extractText(db, versionId);
  while (await ocrSlice(db, versionId));
}

export async function textRow(versionId: number) {
  const db = await getDb();
  const [row] = await db.select().from(versionTexts).where(eq(versionTexts.versionId, versionId));
  return row;
}

/** Runs with some variables changed (the tools' paths), then puts them back. */
export async function withEnv<T>(vars: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}
