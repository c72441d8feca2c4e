import "server-only";
import { fileTypeFromBuffer } from "file-type/core";
import { getBlobStore } from "@/lib/server/blobs/stores";
import type { StoredBlob } from "@/lib/storage/blob-store";
import { guessMime } from "./mime";

/** How much of the content decides its type: file-type needs 4100 bytes for its longest signatures. */
export const SNIFF_BYTES = 8 * 1024;

const OCTET_STREAM = "application/octet-stream";

/**
 * Containers whose own signature is all the first bytes show: the name says which format is built
 * on them (a .docx is a zip, an old .doc a compound file), so the name's type is kept for these.
 */
const CONTAINERS: Record<string, Set<string>> = {
  "application/zip": new Set([
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    "application/vnd.oasis.opendocument.text",
    "application/vnd.oasis.opendocument.spreadsheet",
    "application/vnd.oasis.opendocument.presentation",
  ]),
  "application/x-cfb": new Set(["application/msword", "application/vnd.ms-excel", "application/vnd.ms-powerpoint"]),
};

/** Markup a browser would parse (and run script in); file-type only knows binary signatures. */
const MARKUP_TYPES = new Set(["text/html", "application/xhtml+xml", "image/svg+xml", "application/xml", "text/xml"]);

/** Openings by which browsers recognise HTML (WHATWG MIME sniffing, "identifying a resource with an unknown MIME type"). */
const HTML_OPENINGS = ["<!doctype html", "<html", "<head", "<script", "<iframe", "<h1", "<div", "<font", "<table", "<a", "<style", "<title", "<b", "<body", "<br", "<p", "<!--"];

/**
 * Whether the first bytes are markup, and which: HTML, SVG or other XML. Leading white space and
 * a byte order mark are skipped, as browsers do; a tag that opens anywhere in the first bytes
 * (`<script`, `<svg`, `<html`) counts too, so that text with a page inside is never an image.
 */
export function sniffMarkup(head: Uint8Array): "html" | "svg" | "xml" | null {
  const text = utf8.decode(head).replace(/^\uFEFF/, "").replace(/\0/g, "");
  const trimmed = text.trimStart();
  // The openings are short: only the beginning is lowercased (every upload passes here). The tags
  // searched anywhere are matched regardless of case instead of on a lowercased copy: the same
  // matches, since no other character lowercases to one of their ASCII letters alone.
  const start = trimmed.slice(0, 32).toLowerCase();
  const opensWith = (tag: string) => start.startsWith(tag) && (tag === "<!--" || /^[\s>/]/.test(start.charAt(tag.length)));
  if (opensWith("<svg")) return "svg";
  if (HTML_OPENINGS.some(opensWith)) return "html";
  if (start.startsWith("<?xml")) return /<svg[\s>/]/i.test(trimmed) ? "svg" : "xml";
  if (/<svg[\s>/]/i.test(text)) return "svg";
  if (/<(script|html|iframe|object|embed)[\s>/]/i.test(text)) return "html";
  return null;
}

const utf8 = new TextDecoder("utf-8", { fatal: false });

/** Text has no NUL byte in its first bytes (UTF-16 files are the rare exception, and stay generic). */
const looksLikeText = (head: Uint8Array) => !head.includes(0);

const isTextual = (type: string) =>
  type.startsWith("text/") || ["application/json", "application/rtf", "application/javascript"].includes(type) || type.endsWith("+json");

/**
 * The type a stored file gets (api.md, "Served types"): decided from its first bytes and its name,
 * never from what the client declared.
 * - A binary signature the bytes carry wins (a "report.pdf" holding a PNG is an image/png), except
 *   that a container (zip, compound file) keeps the office type its name gives.
 * - Markup (HTML, SVG, XML) keeps a markup or text type only when the name gives one; otherwise it
 *   becomes application/octet-stream. So markup never gets an image or PDF type, and is always
 *   served as an attachment or in a sandbox.
 * - A name promising a format with a signature (PDF, images, audio, video, archives) that the bytes
 *   do not carry gets application/octet-stream: a PDF type means PDF bytes.
 * - Text keeps its name's text type; an unknown name stays application/octet-stream.
 */
export async function sniffType(head: Uint8Array, name: string): Promise<string> {
  const byName = guessMime(name);
  const detected = await fileTypeFromBuffer(head).catch(() => undefined);
  if (detected && detected.mime !== "application/xml") {
    return CONTAINERS[detected.mime]?.has(byName) ? byName : detected.mime;
  }
  const markup = detected ? "xml" : sniffMarkup(head);
  if (markup) {
    // A text file quoting a page stays text (served as text/plain, never parsed as markup).
    if (!MARKUP_TYPES.has(byName)) return isTextual(byName) ? byName : OCTET_STREAM;
    // An .svg that is an HTML page is served as what it is; either way it is never shown unsandboxed.
    if (markup === "html" && byName === "image/svg+xml") return "text/html";
    return byName;
  }
  if (!looksLikeText(head)) {
    // Binary content no signature recognises: the name may say what it is, unless that name
    // promises a format whose signature would have been found.
    return isTextual(byName) || MARKUP_TYPES.has(byName) || hasSignature(byName) ? OCTET_STREAM : byName;
  }
  // Text: a textual or markup name keeps its type; a name promising a binary format does not.
  return isTextual(byName) || MARKUP_TYPES.has(byName) ? byName : OCTET_STREAM;
}

/** Formats whose bytes always start with a signature file-type knows. */
function hasSignature(type: string): boolean {
  return (
    type === "application/pdf" ||
    type.startsWith("image/") ||
    type.startsWith("video/") ||
    type.startsWith("audio/") ||
    ["application/zip", "application/gzip", "application/x-tar", "application/x-7z-compressed"].includes(type) ||
    Object.values(CONTAINERS).some((types) => types.has(type))
  );
}

/** The type of a stored blob: one small ranged read of its first bytes, then sniffType. */
export async function sniffStoredType(blob: StoredBlob, name: string): Promise<string> {
  if (blob.size === 0) return sniffType(new Uint8Array(0), name);
  // Kept by the store while it wrote the blob (uploads): no read back.
  if (blob.head && blob.head.length >= Math.min(blob.size, SNIFF_BYTES)) return sniffType(blob.head.subarray(0, SNIFF_BYTES), name);
  const stream = await getBlobStore().read(blob.id, { start: 0, end: Math.min(blob.size, SNIFF_BYTES) - 1 });
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return sniffType(new Uint8Array(Buffer.concat(parts)), name);
}
