import { createReadStream } from "node:fs";
import { createRequire } from "node:module";
import { Readable } from "node:stream";

export const runtime = "nodejs";

// pdf.js renders PDFs in a module worker; it is served from the installed pdfjs-dist so the
// viewer and its worker can never be of different versions.
const workerPath = createRequire(import.meta.url).resolve("pdfjs-dist/build/pdf.worker.min.mjs");

export function GET() {
  const body = Readable.toWeb(createReadStream(workerPath)) as ReadableStream;
  return new Response(body, { headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=86400" } });
}
