// The metadata worker (lib/server/meta/meta-pool.ts runs it through worker-pool.ts): office
// documents' properties (a zip read with yauzl, its XML with @xmldom/xmldom) and images' EXIF
// (exif-reader) are parsed here, never on the web process's event loop. Plain JavaScript that
// imports node_modules packages only, loaded by path like pdf-worker.mjs. What it answers is raw
// (strings as found, dates as Date or text): lib/server/meta/clean-meta.ts cleans it.
import { Readable } from "node:stream";
import { DOMParser } from "@xmldom/xmldom";
import exifReader from "exif-reader";
import yauzl from "yauzl";
import { serveOperations } from "./worker-side.mjs";

/** The blob is read in blocks of this size, a few kept: a central directory is read entry by entry. */
const BLOCK = 256 * 1024;
const KEPT_BLOCKS = 8;

class TaskError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/** A zip's bytes through the main thread (the worker never opens the blob store), block by block. */
class BlobReader extends yauzl.RandomAccessReader {
  constructor(call, size) {
    super();
    this.call = call;
    this.size = size;
    this.blocks = new Map();
  }

  block(index) {
    let block = this.blocks.get(index);
    if (!block) {
      const start = index * BLOCK;
      block = this.call("read", { start, end: Math.min(this.size, start + BLOCK) - 1 }).then((bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      if (this.blocks.size >= KEPT_BLOCKS) this.blocks.delete(this.blocks.keys().next().value);
      this.blocks.set(index, block);
    }
    return block;
  }

  // yauzl's ranges end exclusive.
  _readStreamForRange(start, end) {
    const block = (index) => this.block(index);
    let at = start;
    return new Readable({
      read() {
        if (at >= end) return this.push(null);
        const index = Math.floor(at / BLOCK);
        block(index).then(
          (bytes) => {
            const from = at - index * BLOCK;
            const to = Math.min(bytes.length, end - index * BLOCK);
            if (to <= from) return this.destroy(new Error("The file ended early"));
            at += to - from;
            this.push(bytes.subarray(from, to));
          },
          (error) => this.destroy(error),
        );
      },
    });
  }
}

/** The entries named in `wanted`, as text, from a zip of `size` bytes; `limits` bound what is read. */
async function readZipEntries(call, size, wanted, limits) {
  const zip = await yauzl.fromRandomAccessReaderPromise(new BlobReader(call, size), size, { strictFileNames: false });
  try {
    if (zip.entryCount > limits.maxEntries) throw new TaskError("too_many_entries", `The archive has ${zip.entryCount} entries (at most ${limits.maxEntries} are read)`);
    const found = {};
    let remaining = wanted.length;
    for (let seen = 0; remaining > 0 && seen < zip.entryCount; seen++) {
      const entry = await nextEntry(zip);
      if (!entry) break;
      if (!wanted.includes(entry.fileName) || entry.fileName in found) continue;
      remaining--;
      // Declared sizes first (a bomb says what it is); yauzl checks that the inflated bytes keep to them.
      if (entry.uncompressedSize > limits.maxEntryBytes || entry.compressedSize > limits.maxEntryBytes) continue;
      found[entry.fileName] = await readEntryText(zip, entry, limits.maxEntryBytes);
    }
    return found;
  } finally {
    zip.close();
  }
}

function nextEntry(zip) {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      zip.off("entry", onEntry);
      zip.off("end", onEnd);
      zip.off("error", onError);
    };
    const onEntry = (entry) => (cleanup(), resolve(entry));
    const onEnd = () => (cleanup(), resolve(null));
    const onError = (error) => (cleanup(), reject(error));
    zip.on("entry", onEntry);
    zip.on("end", onEnd);
    zip.on("error", onError);
    zip.readEntry();
  });
}

async function readEntryText(zip, entry, maxBytes) {
  const stream = await zip.openReadStreamPromise(entry);
  const parts = [];
  let length = 0;
  for await (const part of stream) {
    length += part.length;
    if (length > maxBytes) {
      stream.destroy();
      throw new TaskError("too_large", `${entry.fileName} is larger than ${maxBytes} bytes`);
    }
    parts.push(part);
  }
  return Buffer.concat(parts).toString("utf8");
}

/** The elements of `doc` with this namespace and local name, as trimmed text. */
function texts(doc, namespace, localName) {
  const found = [];
  const nodes = doc.getElementsByTagNameNS(namespace, localName);
  // Cut here: a value of megabytes is not sent to the main thread.
  for (let i = 0; i < nodes.length && i < 100; i++) found.push((nodes[i].textContent ?? "").trim().slice(0, 16_384));
  return found.filter(Boolean);
}
const first = (doc, namespace, localName) => texts(doc, namespace, localName)[0];

const NS = {
  dc: "http://purl.org/dc/elements/1.1/",
  dcterms: "http://purl.org/dc/terms/",
  cp: "http://schemas.openxmlformats.org/package/2006/metadata/core-properties",
  app: "http://schemas.openxmlformats.org/officeDocument/2006/extended-properties",
  odfMeta: "urn:oasis:names:tc:opendocument:xmlns:meta:1.0",
};

function parseXml(text) {
  // A DOCTYPE could declare entities that expand without end: an office document's metadata has none.
  if (/<!DOCTYPE/i.test(text)) throw new TaskError("doctype", "The XML declares a document type");
  let failed = false;
  const doc = new DOMParser({ onError: (level) => { if (level === "fatalError") failed = true; } }).parseFromString(text, "text/xml");
  if (failed || !doc.documentElement) throw new TaskError("bad_xml", "The XML could not be read");
  return doc;
}

/** docx, xlsx, pptx: docProps/core.xml, and the page or slide count and application from docProps/app.xml. */
function ooxmlProperties(entries) {
  const meta = {};
  if (entries["docProps/core.xml"] !== undefined) {
    const core = parseXml(entries["docProps/core.xml"]);
    Object.assign(meta, {
      title: first(core, NS.dc, "title"),
      author: first(core, NS.dc, "creator"),
      subject: first(core, NS.dc, "subject"),
      keywords: first(core, NS.cp, "keywords"),
      date: first(core, NS.dcterms, "created"),
    });
  }
  if (entries["docProps/app.xml"] !== undefined) {
    const app = parseXml(entries["docProps/app.xml"]);
    meta.creator = first(app, NS.app, "Application");
    meta.pages = first(app, NS.app, "Pages") ?? first(app, NS.app, "Slides");
  }
  return meta;
}

/** odt, ods, odp: meta.xml (the first author is the author; dc:creator is who saved it last). */
function odfProperties(entries) {
  if (entries["meta.xml"] === undefined) return {};
  const doc = parseXml(entries["meta.xml"]);
  const statistic = doc.getElementsByTagNameNS(NS.odfMeta, "document-statistic")[0];
  return {
    title: first(doc, NS.dc, "title"),
    author: first(doc, NS.odfMeta, "initial-creator") ?? first(doc, NS.dc, "creator"),
    subject: first(doc, NS.dc, "subject"),
    keywords: texts(doc, NS.odfMeta, "keyword").join(", ") || undefined,
    date: first(doc, NS.odfMeta, "creation-date"),
    creator: first(doc, NS.odfMeta, "generator"),
    pages: statistic?.getAttributeNS(NS.odfMeta, "page-count") || undefined,
  };
}

const ZIP_ENTRIES = { ooxml: ["docProps/core.xml", "docProps/app.xml"], odf: ["meta.xml"] };

serveOperations({
  /** {size, family: "ooxml" | "odf", limits: {maxEntries, maxEntryBytes}} → raw properties */
  async office({ size, family, limits }, call) {
    const entries = await readZipEntries(call, size, ZIP_ENTRIES[family], limits);
    return { value: family === "odf" ? odfProperties(entries) : ooxmlProperties(entries) };
  },

  /** {exif} (sharp's metadata().exif) → {date, author, make, model} raw */
  async exif({ exif }) {
    const tags = exifReader(Buffer.from(exif.buffer, exif.byteOffset, exif.byteLength));
    const text = (value) => (typeof value === "string" ? value.slice(0, 16_384) : undefined);
    return {
      value: {
        date: tags.Photo?.DateTimeOriginal instanceof Date ? tags.Photo.DateTimeOriginal : undefined,
        author: text(tags.Image?.Artist),
        make: text(tags.Image?.Make),
        model: text(tags.Image?.Model),
      },
    };
  },
});
