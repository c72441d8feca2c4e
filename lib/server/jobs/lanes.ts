import "server-only";

/**
 * A lane of the job queue: the kinds it runs, and how many of its jobs one process runs at once.
 * Lanes never wait for each other, so a slow kind (a LibreOffice conversion, a long text
 * extraction) holds up only its own lane. `kinds: null` is the lane of every kind no other lane
 * names (whether or not that lane runs in this process).
 */
export type Lane = { name: string; kinds: readonly string[] | null; concurrency: number };

/**
 * The lanes and their default concurrency per process. Mail is what people wait for (a reset
 * link, a code, a share's invitation): its own lane, two at a time so one slow SMTP server does
 * not hold the next mail. Previews (LibreOffice, ffmpeg, pdf.js) and text extraction are the
 * slow and heavy kinds: one at a time each, apart from everything else. OCR (Tesseract, seconds a
 * page, minutes a scan) has a lane of its own, so that a long scan never holds back the text of
 * the PDFs and office documents behind it. File metadata is quick (a PDF's information
 * dictionary, an office document's properties): its own lane, so it never waits behind a long
 * text extraction.
 */
export const LANES: readonly Lane[] = [
  { name: "mail", kinds: ["mail.send", "account.password-reset"], concurrency: 2 },
  { name: "previews", kinds: ["previews.make"], concurrency: 1 },
  { name: "texts", kinds: ["texts.extract"], concurrency: 1 },
  { name: "ocr", kinds: ["texts.ocr"], concurrency: 1 },
  { name: "meta", kinds: ["files.meta"], concurrency: 1 },
  { name: "other", kinds: null, concurrency: 1 },
];

const MAX_CONCURRENCY = 32;

/**
 * The lanes with the concurrency JOBS_CONCURRENCY gives them (`mail=4,previews=0`): 0 runs none of
 * a lane's jobs in this process (a dedicated worker process may run them). A malformed entry is
 * reported and left at its default, so a typo never stops the queue.
 */
export function lanesFromEnv(value = process.env.JOBS_CONCURRENCY ?? ""): { lanes: Lane[]; problems: string[] } {
  const problems: string[] = [];
  const lanes = LANES.map((lane) => ({ ...lane }));
  for (const entry of value.split(",").map((part) => part.trim()).filter(Boolean)) {
    const match = /^([a-z]+)\s*=\s*(\d+)$/.exec(entry);
    const lane = match && lanes.find((l) => l.name === match[1]);
    const concurrency = match ? Number(match[2]) : NaN;
    if (!lane || concurrency > MAX_CONCURRENCY) {
      problems.push(`JOBS_CONCURRENCY: "${entry}" is not <lane>=<0..${MAX_CONCURRENCY}> for a lane among ${LANES.map((l) => l.name).join(", ")}`);
      continue;
    }
    lane.concurrency = concurrency;
  }
  return { lanes, problems };
}

/** The kinds a lane of `kinds: null` leaves to the others: every kind another lane names. */
export function kindsNamedBesides(lanes: readonly Lane[], lane: Lane): string[] {
  return lanes.filter((other) => other !== lane).flatMap((other) => other.kinds ?? []);
}
