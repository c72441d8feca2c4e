import { Readable } from "node:stream";
import zlib from "node:zlib";
import { desc, eq } from "drizzle-orm";
import { PDFDocument } from "pdf-lib";
import sharp from "sharp";
import { ZipFile } from "yazl";
import { getDb } from "@/db";
import { jobs } from "@/db/schema";
import { handlerFor } from "@/lib/server/jobs/registry";

/**
 * Files with metadata, built at test time (no binary fixtures): a PDF with an information
 * dictionary (pdf-lib), a docx and an odt (yazl), a JPEG with EXIF (sharp), and hostile ones.
 */
const xml = (s: string) => Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${s}`);
const escape = (text: string) => text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

export type DocumentInfo = { title: string; author: string; subject: string; keywords: string[]; creator: string; producer: string; created: Date; pages: number };

export async function pdfWithInfo(info: DocumentInfo): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let n = 0; n < info.pages; n++) doc.addPage([300, 400]);
  doc.setTitle(info.title);
  doc.setAuthor(info.author);
  doc.setSubject(info.subject);
  doc.setKeywords(info.keywords);
  doc.setCreator(info.creator);
  doc.setProducer(info.producer);
  doc.setCreationDate(info.created);
  return doc.save();
}

type Entry = { name: string; data: Buffer | Readable; store?: boolean };

async function zipOf(entries: Entry[]): Promise<Buffer> {
  const zip = new ZipFile();
  for (const { name, data, store } of entries) {
    if (Buffer.isBuffer(data)) zip.addBuffer(data, name, { compress: !store });
    else zip.addReadStream(data, name, { compress: !store });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const DOCX_TYPES = xml(
  `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/><Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/></Types>`,
);
const DOCX_RELS = xml(
  `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/extended-properties" Target="docProps/app.xml"/></Relationships>`,
);
const DOCX_BODY = xml(`<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Hello</w:t></w:r></w:p></w:body></w:document>`);

function coreXml(info: Omit<DocumentInfo, "creator" | "producer" | "pages">) {
  return xml(
    `<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><dc:title>${escape(info.title)}</dc:title><dc:subject>${escape(info.subject)}</dc:subject><dc:creator>${escape(info.author)}</dc:creator><cp:keywords>${escape(info.keywords.join(", "))}</cp:keywords><cp:lastModifiedBy>Someone else</cp:lastModifiedBy><dcterms:created xsi:type="dcterms:W3CDTF">${info.created.toISOString().replace(/\.\d{3}Z$/, "Z")}</dcterms:created></cp:coreProperties>`,
  );
}

export function docxWithProperties(info: Omit<DocumentInfo, "producer">): Promise<Buffer> {
  return zipOf([
    { name: "[Content_Types].xml", data: DOCX_TYPES },
    { name: "_rels/.rels", data: DOCX_RELS },
    { name: "word/document.xml", data: DOCX_BODY },
    { name: "docProps/core.xml", data: coreXml(info) },
    {
      name: "docProps/app.xml",
      data: xml(
        `<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"><Application>${escape(info.creator)}</Application><Pages>${info.pages}</Pages></Properties>`,
      ),
    },
  ]);
}

export function odtWithProperties(info: Omit<DocumentInfo, "producer">): Promise<Buffer> {
  const office = `xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" office:version="1.3"`;
  return zipOf([
    { name: "mimetype", data: Buffer.from("application/vnd.oasis.opendocument.text"), store: true },
    {
      name: "META-INF/manifest.xml",
      data: xml(
        `<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/><manifest:file-entry manifest:full-path="meta.xml" manifest:media-type="text/xml"/></manifest:manifest>`,
      ),
    },
    {
      name: "content.xml",
      data: xml(`<office:document-content ${office} xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:text><text:p>Hello</text:p></office:text></office:body></office:document-content>`),
    },
    {
      name: "meta.xml",
      data: xml(
        `<office:document-meta ${office} xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><office:meta><meta:generator>${escape(info.creator)}</meta:generator><dc:title>${escape(info.title)}</dc:title><dc:subject>${escape(info.subject)}</dc:subject>${info.keywords.map((k) => `<meta:keyword>${escape(k)}</meta:keyword>`).join("")}<meta:initial-creator>${escape(info.author)}</meta:initial-creator><dc:creator>Someone else</dc:creator><meta:creation-date>${info.created.toISOString().replace(/Z$/, "")}</meta:creation-date><meta:document-statistic meta:page-count="${info.pages}" meta:word-count="1"/></office:meta></office:document-meta>`,
      ),
    },
  ]);
}

/** A JPEG whose EXIF names its author, camera and the moment it was taken (EXIF's "YYYY:MM:DD HH:MM:SS"). */
export function jpegWithExif(exif: { artist: string; make: string; model: string; taken: string }, format: "jpeg" | "webp" = "jpeg"): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 80, b: 40 } } })
    [format]()
    .withExif({ IFD0: { Artist: exif.artist, Make: exif.make, Model: exif.model }, IFD2: { DateTimeOriginal: exif.taken } })
    .toBuffer();
}

/**
 * The JPEG with its EXIF made malformed: the first directory claims 65535 entries and points
 * past the end of the block.
 */
export async function jpegWithMalformedExif(): Promise<Buffer> {
  const jpeg = Buffer.from(await jpegWithExif({ artist: "Ada", make: "Canon", model: "EOS", taken: "2023:07:14 09:08:07" }));
  const exif = jpeg.indexOf("Exif\0\0", 0, "latin1");
  if (exif < 0) throw new Error("no EXIF block in the JPEG sharp wrote");
  const tiff = exif + 6;
  const littleEndian = jpeg.toString("latin1", tiff, tiff + 2) === "II";
  const ifd0 = tiff + (littleEndian ? jpeg.readUInt32LE(tiff + 4) : jpeg.readUInt32BE(tiff + 4));
  if (littleEndian) jpeg.writeUInt16LE(0xffff, ifd0);
  else jpeg.writeUInt16BE(0xffff, ifd0);
  // The first entry's value offset, far outside the block.
  if (littleEndian) jpeg.writeUInt32LE(0x7ffffff0, ifd0 + 2 + 8);
  else jpeg.writeUInt32BE(0x7ffffff0, ifd0 + 2 + 8);
  return jpeg;
}

/** A docx whose core.xml inflates to `megabytes` MB of spaces (a zip bomb in a few hundred KB). */
export function docxBomb(megabytes: number): Promise<Buffer> {
  const block = Buffer.alloc(1024 * 1024, 0x20);
  let sent = 0;
  const spaces = new Readable({
    read() {
      this.push(sent++ < megabytes ? block : null);
    },
  });
  return zipOf([
    { name: "[Content_Types].xml", data: DOCX_TYPES },
    { name: "_rels/.rels", data: DOCX_RELS },
    { name: "word/document.xml", data: DOCX_BODY },
    { name: "docProps/core.xml", data: spaces },
  ]);
}

/** The zip bomb with its central directory lying: core.xml says it inflates to 1,000 bytes. */
export async function docxBombLyingAboutSize(megabytes: number): Promise<Buffer> {
  const zip = await docxBomb(megabytes);
  const name = Buffer.from("docProps/core.xml");
  for (let at = zip.indexOf("PK\x01\x02", 0, "latin1"); at >= 0; at = zip.indexOf("PK\x01\x02", at + 4, "latin1")) {
    if (zip.subarray(at + 46, at + 46 + name.length).equals(name)) {
      zip.writeUInt32LE(1000, at + 24);
      return zip;
    }
  }
  throw new Error("core.xml is not in the central directory");
}

/**
 * A docx of `count` empty entries and then its core.xml: an archive made of names. Written by hand
 * (stored entries, ZIP64 end records for more than 65,535 entries): yazl takes a minute for 100,000.
 */
export function docxOfManyEntries(count: number): Buffer {
  const entries = [...Array.from({ length: count }, (_, i) => ({ name: `x/${i}`, data: Buffer.alloc(0) })), { name: "docProps/core.xml", data: coreXml({ title: "Many", author: "A", subject: "S", keywords: [], created: new Date("2024-01-01T00:00:00Z") }) }];
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, data } of entries) {
    const fileName = Buffer.from(name);
    const crc = zlib.crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(fileName.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, fileName, data);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const zip64End = Buffer.alloc(56);
  zip64End.writeUInt32LE(0x06064b50, 0);
  zip64End.writeBigUInt64LE(44n, 4);
  zip64End.writeUInt16LE(45, 12);
  zip64End.writeUInt16LE(45, 14);
  zip64End.writeBigUInt64LE(BigInt(entries.length), 24);
  zip64End.writeBigUInt64LE(BigInt(entries.length), 32);
  zip64End.writeBigUInt64LE(BigInt(directory.length), 40);
  zip64End.writeBigUInt64LE(BigInt(offset), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeBigUInt64LE(BigInt(offset + directory.length), 8);
  locator.writeUInt32LE(1, 16);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(entries.length, 0xffff), 8);
  end.writeUInt16LE(Math.min(entries.length, 0xffff), 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, zip64End, locator, end]);
}

/**
 * Runs the metadata job queued for a version: its row's payload through the registered handler,
 * as the worker would, on this version alone (runDueJobs would also run other tests' hostile
 * files first). Not a last attempt: a file's own fault must not make the job throw for a retry.
 */
export async function runMetaJobOf(versionId: number): Promise<void> {
  const db = await getDb();
  const [job] = await db.select().from(jobs).where(eq(jobs.dedupeKey, `${META_JOB}:${versionId}`)).orderBy(desc(jobs.id)).limit(1);
  if (!job) throw new Error(`no ${META_JOB} job was queued for version ${versionId}`);
  const handler = await handlerFor(META_JOB);
  await handler!(db, job.payload as Record<string, unknown>, { lastAttempt: false });
}

export const META_JOB = "files.meta";
