import { createReadStream } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";

export const runtime = "nodejs";

// pdf.js renders PDFs in a module worker; it is served from the installed pdfjs-dist so the
// viewer and its worker can never be of different versions. The path is built at run time: a
// require.resolve here would be rewritten by the bundler into a module id.
const workerPath = path.join(process.cwd(), "node_modules", "pdfjs-dist", "build", "pdf.worker.min.mjs");

export function GET() {
  const body = Readable.toWeb(createReadStream(workerPath)) as ReadableStream;
  return new Response(body, { headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=86400" } });
}
