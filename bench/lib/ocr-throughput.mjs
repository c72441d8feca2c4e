// OCR throughput (issue 33): BENCH_OCR_PAGES generated scans (PNG pages of printed text, A4 at
// 150 dpi) uploaded through the API, read by the app's own OCR job (lib/server/texts/ocr-job.ts:
// Tesseract in the converter sandbox, page by page); pages per minute from the first upload to
// the last text saved, and whether each text holds the page's marker word.
import sharp from "sharp";
import { expectStatus, multipartBody, request } from "./http-client.mjs";
import { log, sleep } from "./util.mjs";

const LINES = [
  "Lease agreement between the landlord and the tenant",
  "The tenant pays the monthly rent before the fifth day",
  "of each month, with the service charges and the taxes.",
  "Either party may end this agreement with three months",
  "notice, sent by registered letter to the other party.",
];

/** One page: black text on white, 1240 x 1754 pixels (A4 at 150 dpi), with its marker word. */
async function pageImage(marker) {
  const text = [...LINES, `Reference ${marker}`]
    .map((line, i) => `<text x="120" y="${200 + i * 70}" font-family="DejaVu Sans, sans-serif" font-size="36" fill="#000">${line}</text>`)
    .join("");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1240" height="1754"><rect width="100%" height="100%" fill="#fff"/>${text}</svg>`;
  return sharp(Buffer.from(svg)).png().withMetadata({ density: 150 }).toBuffer();
}

export async function measureOcr({ base, token, folderId, db, pages = Number(process.env.BENCH_OCR_PAGES ?? 12), limitMs = 20 * 60_000 }) {
  if (pages <= 0) return null;
  const markers = Array.from({ length: pages }, (_, i) => `quokka${1000 + i}`);
  const images = await Promise.all(markers.map(pageImage));
  const ids = [];
  const since = performance.now();
  for (let i = 0; i < pages; i++) {
    const body = multipartBody({ folderId }, { name: `scan-${markers[i]}.png`, buffer: images[i] });
    const res = await request(`${base}/api/file/upload`, { method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": body.contentType, "Content-Length": body.length }, body: body.stream });
    expectStatus(res, [200, 201], "upload a scan");
    ids.push(Number(JSON.parse(res.text).id));
  }
  for (;;) {
    const rows = await db.query(`SELECT version_id, state, content, tool_missing FROM version_texts WHERE version_id = ANY($1::int[])`, [ids]);
    const done = rows.filter((r) => !["pending", "preparing"].includes(r.state));
    if (done.length === pages) {
      const ms = performance.now() - since;
      const read = done.filter((r) => markers.some((m) => r.content.includes(m))).length;
      const missing = done.find((r) => r.tool_missing)?.tool_missing ?? null;
      log(`ocr: ${pages} pages in ${(ms / 1000).toFixed(1)} s, ${read} with their marker${missing ? `, missing tool ${missing}` : ""}`);
      return { label: `OCR of ${pages} generated scan pages (A4, 150 dpi)`, pages, ms, pagesPerMinute: (pages * 60_000) / ms, markersRead: read, toolMissing: missing };
    }
    if (performance.now() - since > limitMs) return { label: `OCR of ${pages} pages`, pages, error: `${done.length} of ${pages} done after ${limitMs / 1000} s` };
    await sleep(500);
  }
}
