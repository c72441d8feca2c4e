import "server-only";
import { PDFDocument, type PDFPage, rgb } from "pdf-lib";
import { auditLabels, plainWords, type AuditLocale } from "./audit-trail-labels";
import { FontStack } from "./fonts";

export type AuditTrailInput = {
  request: {
    id: number;
    name: string;
    status: string;
    initiator: { name: string; email: string };
    created_at: Date;
    completed_at?: Date | null;
  };
  documents: { name: string; sha256_before: string; sha256_after?: string | null }[];
  actors: { type: string; name: string; email: string; status: string; signed_at?: Date | null }[];
  activities: { date: Date; action: string; actor?: string | null; address?: string | null; user_agent?: string | null }[];
  locale?: AuditLocale;
};

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 48;
const BOTTOM = 56; // room for the footer
const WIDTH = A4[0] - 2 * MARGIN;
const TEXT = rgb(0.1, 0.1, 0.12);
const MUTED = rgb(0.42, 0.42, 0.46);
const RULE = rgb(0.82, 0.82, 0.85);
const HEADER_FILL = rgb(0.93, 0.94, 0.96);
const MAX_CELL_LINES = 24;

type Column = { label: string; width: number };

/**
 * The audit trail of a signature request as an A4 PDF: summary, documents with their SHA-256
 * before and after, participants, then every activity (UTC date, action in plain words, actor,
 * address, user agent) as a table that wraps and runs over as many pages as it needs. Returned
 * unsealed: callers seal it with sealPdf.
 */
export async function renderAuditTrail(input: AuditTrailInput): Promise<Uint8Array> {
  const labels = auditLabels(input.locale);
  const doc = await PDFDocument.create();
  const now = new Date();
  doc.setTitle(`${labels.title}: ${input.request.name}`);
  doc.setProducer("Coffre");
  doc.setCreator("Coffre");
  doc.setCreationDate(now);
  doc.setModificationDate(now);
  doc.setLanguage(input.locale === "fr" ? "fr-FR" : "en");
  const out = new Writer(doc, await FontStack.create(doc, "sans"), await FontStack.create(doc, "sans-bold"));
  const { request } = input;
  const word = (code: string) => plainWords(labels, code);

  await out.text(labels.title, { size: 20, bold: true, gap: 4 });
  await out.text(request.name, { size: 12, color: MUTED, gap: 14 });

  await out.heading(labels.summary);
  await out.table(
    [{ label: "", width: 130 }, { label: "", width: WIDTH - 130 }],
    [
      [labels.request, `#${request.id}`],
      [labels.name, request.name],
      [labels.status, word(request.status)],
      [labels.initiator, `${request.initiator.name} <${request.initiator.email}>`],
      [labels.created, isoUtc(request.created_at)],
      [labels.completed, request.completed_at ? isoUtc(request.completed_at) : labels.none],
    ],
    { header: false, size: 9, boldFirst: true },
  );

  await out.heading(labels.documents);
  if (input.documents.length === 0) await out.text(labels.none, { size: 9, color: MUTED, gap: 6 });
  for (const d of input.documents) {
    await out.table(
      [{ label: "", width: 130 }, { label: "", width: WIDTH - 130 }],
      [
        [labels.document, d.name],
        [labels.sha256Before, d.sha256_before],
        [labels.sha256After, d.sha256_after ?? labels.notSigned],
      ],
      { header: false, size: 8, boldFirst: true },
    );
  }

  await out.heading(labels.actors);
  await out.table(
    [
      { label: labels.type, width: 70 },
      { label: labels.name, width: 120 },
      { label: labels.email, width: 150 },
      { label: labels.status, width: 60 },
      { label: labels.signedAt, width: WIDTH - 400 },
    ],
    input.actors.map((a) => [word(a.type), a.name, a.email, word(a.status), a.signed_at ? isoUtc(a.signed_at) : labels.none]),
    { size: 8 },
  );

  await out.heading(labels.activities);
  await out.table(
    [
      { label: labels.date, width: 96 },
      { label: labels.action, width: 100 },
      { label: labels.actor, width: 95 },
      { label: labels.address, width: 74 },
      { label: labels.userAgent, width: WIDTH - 365 },
    ],
    [...input.activities]
      .sort((a, b) => a.date.getTime() - b.date.getTime())
      .map((a) => [isoUtc(a.date), word(a.action), a.actor || labels.none, a.address || labels.none, a.user_agent || labels.none]),
    { size: 7 },
  );
  await out.text(labels.datesNote, { size: 7, color: MUTED, gap: 0 });

  await out.footers((n, total) => [labels.generated(isoUtc(now)), `${labels.request} #${request.id} · ${labels.page(n, total)}`]);
  return doc.save();
}

/** ISO 8601 in UTC, to the second. */
function isoUtc(date: Date): string {
  return Number.isNaN(date.getTime()) ? "—" : date.toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** A cursor down A4 pages: text, headings and tables that break onto new pages. */
class Writer {
  private page: PDFPage;
  private y = 0;

  constructor(
    private readonly doc: PDFDocument,
    private readonly regular: FontStack,
    private readonly bold: FontStack,
  ) {
    this.page = this.newPage();
  }

  private newPage(): PDFPage {
    this.page = this.doc.addPage(A4);
    this.y = A4[1] - MARGIN;
    return this.page;
  }

  private room(height: number): boolean {
    return this.y - height >= BOTTOM;
  }

  async text(value: string, options: { size: number; bold?: boolean; color?: ReturnType<typeof rgb>; gap: number }) {
    const font = options.bold ? this.bold : this.regular;
    for (const line of await font.wrap(value, WIDTH, options.size)) {
      if (!this.room(options.size * 1.3)) this.newPage();
      this.y -= options.size;
      await font.draw(this.page, line, { x: MARGIN, y: this.y, size: options.size, color: options.color ?? TEXT });
      this.y -= options.size * 0.3;
    }
    this.y -= options.gap;
  }

  async heading(value: string) {
    if (!this.room(60)) this.newPage(); // never a heading alone at the foot of a page
    this.y -= 8;
    await this.text(value, { size: 12, bold: true, gap: 4 });
  }

  async table(columns: Column[], rows: string[][], options: { size: number; header?: boolean; boldFirst?: boolean }) {
    const { size } = options;
    const line = size * 1.25;
    const pad = 3;
    const drawHeader = async () => {
      if (options.header === false) return;
      const height = line + 2 * pad;
      this.page.drawRectangle({ x: MARGIN, y: this.y - height, width: WIDTH, height, color: HEADER_FILL });
      let x = MARGIN;
      for (const column of columns) {
        await this.bold.draw(this.page, column.label, { x: x + pad, y: this.y - pad - size, size, color: TEXT });
        x += column.width;
      }
      this.y -= height;
    };
    if (!this.room(2 * (line + 2 * pad))) this.newPage();
    await drawHeader();
    if (rows.length === 0) {
      this.y -= line;
      await this.regular.draw(this.page, "—", { x: MARGIN + pad, y: this.y, size, color: MUTED });
      this.y -= pad + 6;
      return;
    }
    for (const row of rows) {
      const cells = await Promise.all(
        row.map(async (value, i) => {
          const font = options.boldFirst && i === 0 ? this.bold : this.regular;
          const lines = await font.wrap(value, columns[i].width - 2 * pad, size);
          return { font, lines: lines.length > MAX_CELL_LINES ? [...lines.slice(0, MAX_CELL_LINES - 1), "…"] : lines };
        }),
      );
      const height = Math.max(...cells.map((c) => c.lines.length)) * line + 2 * pad;
      if (!this.room(height)) {
        this.newPage();
        await drawHeader();
      }
      let x = MARGIN;
      for (const [i, cell] of cells.entries()) {
        let baseline = this.y - pad - size;
        for (const text of cell.lines) {
          await cell.font.draw(this.page, text, { x: x + pad, y: baseline, size, color: TEXT });
          baseline -= line;
        }
        x += columns[i].width;
      }
      this.y -= height;
      this.page.drawLine({ start: { x: MARGIN, y: this.y }, end: { x: MARGIN + WIDTH, y: this.y }, thickness: 0.5, color: RULE });
    }
    this.y -= 6;
  }

  /** Left and right footer text on every page, once the page count is known. */
  async footers(texts: (n: number, total: number) => [string, string]) {
    const pages = this.doc.getPages();
    for (const [i, page] of pages.entries()) {
      const [left, right] = texts(i + 1, pages.length);
      page.drawLine({ start: { x: MARGIN, y: 40 }, end: { x: A4[0] - MARGIN, y: 40 }, thickness: 0.5, color: RULE });
      await this.regular.draw(page, left, { x: MARGIN, y: 28, size: 7, color: MUTED });
      const width = await this.regular.widthOf(right, 7);
      await this.regular.draw(page, right, { x: A4[0] - MARGIN - width, y: 28, size: 7, color: MUTED });
    }
  }
}
