import sharp from "sharp";

/** A one-page PDF whose page shows `text` (Helvetica), with a correct cross-reference table. */
export function pdfWithText(text: string): Buffer {
  return pdfWithPages([text]);
}

/** A PDF of one page per text (Helvetica, 24 pt), for page-by-page journeys. */
export function pdfWithPages(texts: string[]): Buffer {
  const pages = texts.map((_, i) => 3 + i * 2);
  const objects = ["<< /Type /Catalog /Pages 2 0 R >>", `<< /Type /Pages /Kids [${pages.map((n) => `${n} 0 R`).join(" ")}] /Count ${texts.length} >>`];
  const font = 3 + texts.length * 2;
  for (const text of texts) {
    const stream = `BT /F1 24 Tf 72 700 Td (${text.replace(/[\\()]/g, (c) => `\\${c}`)}) Tj ET`;
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${objects.length + 2} 0 R /Resources << /Font << /F1 ${font} 0 R >> >> >>`);
    objects.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  }
  objects.push("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
  let body = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body);
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, "latin1");
}

/** A solid-colour PNG. */
export const solidPng = (width: number, height: number, rgb: [number, number, number]) =>
  sharp({ create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } }).png().toBuffer();

/** A one-page PDF holding only a picture of text (no text layer), as a scanner makes it. */
export async function scannedPdf(lines: string[]): Promise<Buffer> {
  const { createCanvas } = await import("@napi-rs/canvas");
  const { PDFDocument } = await import("pdf-lib");
  const canvas = createCanvas(1400, 140 + lines.length * 90);
  const context = canvas.getContext("2d");
  context.fillStyle = "#ffffff";
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.fillStyle = "#000000";
  context.font = "56px sans-serif";
  lines.forEach((line, i) => context.fillText(line, 60, 110 + i * 90));
  const pdf = await PDFDocument.create();
  const image = await pdf.embedPng(canvas.toBuffer("image/png"));
  pdf.addPage([595, 842]).drawImage(image, { x: 48, y: 600, width: 500, height: (image.height / image.width) * 500 });
  return Buffer.from(await pdf.save());
}
