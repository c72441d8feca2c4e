import { createHash, randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { crc32, deflateSync } from "node:zlib";
import sharp from "sharp";
import type { User } from "@/db/schema";
import { commitUpload } from "@/lib/server/files/commit-upload";
import { getBlobStore } from "@/lib/storage";
import type { Handler } from "@/lib/server/http/route";
import { ctxFor } from "../../helpers/files";

/** Uploads bytes through commitUpload, as the upload routes do. */
export async function uploadBytes(user: User, folderId: number, name: string, bytes: Buffer, mime?: string) {
  const blob = await getBlobStore().put(Readable.from([bytes]));
  return commitUpload(await ctxFor(user), { folderId, name, blob, mime });
}

/**
 * Bytes that carry a format's signature and nothing playable: the server types content by its
 * bytes, so a test of a media kind needs at least the signature.
 */
export const fakeMp4 = () => Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from("ftypmp42"), Buffer.alloc(4), Buffer.from("mp42isom"), Buffer.alloc(64)]);
export const fakeMp3 = () => {
  const frame = Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x00]), Buffer.alloc(413)]);
  return Buffer.concat([frame, frame]);
};
export const fakeZip = () => Buffer.concat([Buffer.from("PK\x03\x04"), Buffer.alloc(40)]);

/**
 * Incompressible bytes that the server types as image/png: a PNG signature, an IHDR chunk and one
 * IDAT chunk over random data (not decodable; for tests of bytes, not of pictures).
 */
export function pngLike(size: number): { data: Buffer; md5: string } {
  const data = randomBytes(size);
  const head = Buffer.from("89504e470d0a1a0a0000000d494844520000010000000100080200000000000000", "hex");
  head.copy(data, 0);
  data.writeUInt32BE(size - head.length - 12, head.length);
  data.write("IDAT", head.length + 4, "latin1");
  return { data, md5: createHash("md5").update(data).digest("hex") };
}

export const makePng = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 40 } } }).png().toBuffer();

/**
 * A valid PDF with one page per text, each drawn in Helvetica: the words are what pdfjs extracts.
 * Offsets in the cross-reference table are computed, so pdfjs needs no repair.
 */
export function makePdf(pages: string[]): Buffer {
  const objects: string[] = [];
  const pageIds = pages.map((_, i) => 3 + i * 2);
  const fontId = 3 + pages.length * 2;
  objects.push("<< /Type /Catalog /Pages 2 0 R >>");
  objects.push(`<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(" ")}] /Count ${pages.length} >>`);
  for (const [i, text] of pages.entries()) {
    const stream = `BT /F1 18 Tf 20 350 Td (${text}) Tj ET`;
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 400] /Contents ${pageIds[i] + 1} 0 R /Resources << /Font << /F1 ${fontId} 0 R >> >> >>`);
    objects.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  }
  objects.push("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

type PdfObject = string | { dict: string; stream: Buffer };

/** A PDF of the given objects (object 1 the catalog), with a computed cross-reference table. */
export function pdfOf(objects: PdfObject[]): Buffer {
  const parts: Buffer[] = [Buffer.from("%PDF-1.5\n", "latin1")];
  let length = parts[0].length;
  const offsets: number[] = [];
  const push = (bytes: Buffer) => {
    parts.push(bytes);
    length += bytes.length;
  };
  objects.forEach((object, i) => {
    offsets.push(length);
    if (typeof object === "string") return push(Buffer.from(`${i + 1} 0 obj\n${object}\nendobj\n`, "latin1"));
    push(Buffer.from(`${i + 1} 0 obj\n<< ${object.dict} /Length ${object.stream.length} >>\nstream\n`, "latin1"));
    push(object.stream);
    push(Buffer.from("\nendstream\nendobj\n", "latin1"));
  });
  const xref = length;
  const table = offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("");
  push(Buffer.from(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${table}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`, "latin1"));
  return Buffer.concat(parts);
}

/** One page drawing `content` (Flate-compressed), with `resources`. */
const onePage = (content: Buffer, resources = "<< >>", extra: PdfObject[] = []) =>
  pdfOf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 400] /Contents 4 0 R /Resources ${resources} >>`,
    { dict: "/Filter /FlateDecode", stream: deflateSync(content, { level: 1 }) },
    ...extra,
  ]);

/**
 * An image bomb (issue 25, finding 3): one 20000 x 20000 image whose Flate stream of zeros takes
 * a few kilobytes, and decodes to 400 megapixels (1.6 GB once drawn).
 */
export function makeImageBombPdf(): Buffer {
  const side = 20_000;
  const pixels = deflateSync(Buffer.alloc((side * side) / 8), { level: 9 });
  return onePage(Buffer.from("q 300 0 0 400 0 0 cm /Im1 Do Q"), "<< /XObject << /Im1 5 0 R >> >>", [
    { dict: `/Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceGray /BitsPerComponent 1 /Filter /FlateDecode`, stream: pixels },
  ]);
}

/** A page of `count` drawing operators (a filled rectangle is two), some 25 KB compressed for 2 million. */
export function makeOperatorsPdf(count: number): Buffer {
  return onePage(Buffer.from("1 1 1 1 re f\n".repeat(Math.ceil(count / 2)), "latin1"));
}

/** `count` pages sharing one content stream with text, in one flat page tree. */
export function makeManyPagesPdf(count: number): Buffer {
  const kids = Array.from({ length: count }, (_, i) => `${i + 5} 0 R`).join(" ");
  const pages = Array.from({ length: count }, () => "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 400] /Contents 3 0 R /Resources << /Font << /F1 4 0 R >> >> >>");
  return pdfOf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${kids}] /Count ${count} >>`,
    { dict: "", stream: Buffer.from("BT /F1 12 Tf 20 350 Td (many pages) Tj ET") },
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ...pages,
  ]);
}

/**
 * A decompression bomb: a real 1x1 PNG whose header claims 100000 x 100000 pixels (10 gigapixels,
 * 30 GB decoded). Only the header is rewritten (with its CRC), so decoders trust it.
 */
export async function makePngBomb(): Promise<Buffer> {
  const png = Buffer.from(await makePng(1, 1));
  // Signature (8 bytes), then IHDR: length (4), type (4), width (4), height (4)...
  png.writeUInt32BE(100_000, 16);
  png.writeUInt32BE(100_000, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

export const magic = (bytes: Buffer) => ({ webp: bytes.subarray(0, 4).toString() === "RIFF" && bytes.subarray(8, 12).toString() === "WEBP" });

type RawCall = { params: Record<string, string>; query?: Record<string, string>; token?: string | null; headers?: Record<string, string> };

/** Like call(), for binary answers (call() reads the body as text). */
export async function callBytes(handler: Handler, options: RawCall) {
  const url = new URL("http://coffre.test/api/test");
  for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, v);
  const headers = new Headers(options.headers);
  if (options.token) headers.set("authorization", `Bearer ${options.token}`);
  const res = await handler(new Request(url, { headers }), { params: Promise.resolve(options.params) });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}
