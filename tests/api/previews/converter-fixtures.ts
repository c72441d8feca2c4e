import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { ZipFile } from "yazl";

/** A one-page Word document (Office Open XML) whose body is `text`, built by hand. */
export async function makeDocx(text: string): Promise<Buffer> {
  const escaped = text.replace(/[&<>]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;" })[c]!);
  return docxOf(documentXml(`<w:p><w:r><w:t>${escaped}</w:t></w:r></w:p>`));
}

/**
 * A zip bomb of a Word document: `megabytes` of identical paragraphs (1.4 million for 100 MB),
 * which deflate squeezes into about 357 KB, the size of the document that held LibreOffice at
 * 2.7 GB for two minutes. Streamed, so the test never holds the unpacked XML.
 */
export async function makeZipBombDocx(megabytes = 100): Promise<Buffer> {
  const paragraphs = Buffer.from(`<w:p><w:r><w:t>${"a".repeat(64)}</w:t></w:r></w:p>`.repeat(1000));
  const total = megabytes * 1024 * 1024;
  const [head, tail] = documentXml("|").toString().split("|");
  const body = Readable.from(
    (function* () {
      yield Buffer.from(head);
      for (let sent = 0; sent < total; sent += paragraphs.length) yield paragraphs;
      yield Buffer.from(tail);
    })(),
  );
  return docxOf(body);
}

const documentXml = (paragraphs: string) =>
  Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${paragraphs}</w:body></w:document>`);

async function docxOf(document: Buffer | Readable): Promise<Buffer> {
  const zip = new ZipFile();
  const xml = (s: string) => Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${s}`);
  zip.addBuffer(
    xml(
      `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
    ),
    "[Content_Types].xml",
  );
  zip.addBuffer(
    xml(
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
    ),
    "_rels/.rels",
  );
  if (Buffer.isBuffer(document)) zip.addBuffer(document, "word/document.xml");
  else zip.addReadStream(document, "word/document.xml");
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A short test-pattern video made by ffmpeg: an MP4 (H.264 and AAC, plays in browsers) or an AVI (MPEG-4 part 2, does not). */
export function makeVideo(kind: "mp4" | "avi", seconds = 2): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "coffre-video-"));
  const out = path.join(dir, `clip.${kind}`);
  try {
    const codecs = kind === "mp4" ? ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac"] : ["-c:v", "mpeg4", "-c:a", "mp3"];
    execFileSync(
      "ffmpeg",
      ["-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", `testsrc=duration=${seconds}:size=320x240:rate=25`, "-f", "lavfi", "-i", `sine=frequency=440:duration=${seconds}`, ...codecs, "-shortest", out],
      { stdio: "ignore" },
    );
    return fs.readFileSync(out);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
