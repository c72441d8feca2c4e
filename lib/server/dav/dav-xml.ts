import "server-only";
import type { IncomingMessage } from "node:http";
import type { Document, Element } from "@xmldom/xmldom";
import { loadOnce } from "../boot/load-once";
import { AppError } from "../errors";

/** The XML parser loads with the first XML body a WebDAV client sends, not at every start. */
export const loadXmldom = loadOnce(() => import("@xmldom/xmldom"));

export const DAV_NS = "DAV:";
/** The live properties (RFC 4918 15, RFC 4331) of the DAV: namespace: computed on request, never stored (PROPPATCH refuses them). */
export const LIVE_PROPERTIES: ReadonlySet<string> = new Set([
  "resourcetype",
  "displayname",
  "getcontentlength",
  "getcontenttype",
  "getetag",
  "getlastmodified",
  "creationdate",
  "supportedlock",
  "lockdiscovery",
  "quota-used-bytes",
  "quota-available-bytes",
]);
/** XML bodies (PROPFIND, PROPPATCH, LOCK) are small: more than this is refused (413). */
export const MAX_XML_BYTES = 1 << 20;

/**
 * The request body as text, at most MAX_XML_BYTES (413 beyond). The request is never destroyed
 * here: the answer to a refusal drains the rest within bounds (answer-early.ts).
 */
export async function readSmallBody(req: IncomingMessage, max = MAX_XML_BYTES): Promise<string> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > max) throw new AppError("payload_too_large", `An XML body may not exceed ${max} bytes`);
  const parts: Buffer[] = [];
  let size = 0;
  // Leaving the loop early (a throw) must not destroy the request, and with it the socket.
  for await (const chunk of req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) throw new AppError("payload_too_large", `An XML body may not exceed ${max} bytes`);
    parts.push(chunk);
  }
  return Buffer.concat(parts).toString("utf8");
}

/**
 * A namespace-aware parse of a WebDAV body; null for an empty body. Document type declarations
 * are refused outright (no entity of any kind is expanded, external or internal), as is
 * anything the parser reports as an error: 400.
 */
export async function parseXml(text: string): Promise<Document | null> {
  if (text.trim() === "") return null;
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw new AppError("invalid_request", "Document type declarations are not accepted");
  const { DOMParser } = await loadXmldom();
  try {
    const doc = new DOMParser({
      onError: (level, message) => {
        if (level !== "warning") throw new Error(message);
      },
    }).parseFromString(text, "text/xml");
    if (!doc.documentElement) throw new Error("no root element");
    return doc;
  } catch (error) {
    throw new AppError("invalid_request", `The XML body is not well-formed: ${(error as Error).message}`);
  }
}

/** The element children of an element. */
export function childElements(element: Element): Element[] {
  const out: Element[] = [];
  for (let node = element.firstChild; node; node = node.nextSibling) if (node.nodeType === 1) out.push(node as Element);
  return out;
}

export const isDav = (element: Element, localName: string) => element.namespaceURI === DAV_NS && element.localName === localName;

/** Text content: quotes stay as they are (clients compare ETags as text). */
export function escapeXml(text: string): string {
  return text.replace(/[<>&]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;" })[c]!);
}

export function escapeAttr(text: string): string {
  return escapeXml(text).replace(/"/g, "&quot;");
}

/** A property name in Clark notation's two halves. */
export type PropName = { ns: string; name: string };
export const clark = (p: PropName) => `{${p.ns}}${p.name}`;

/**
 * An element written with its own namespace declaration (the D: prefix for DAV:, a fresh one for
 * others), so any property name can be written back exactly as it was asked for.
 */
export function propElement(p: PropName, inner: string | null): string {
  const tag = p.ns === DAV_NS ? `D:${p.name}` : p.ns === "" ? p.name : `x:${p.name}`;
  const decl = p.ns === DAV_NS ? "" : p.ns === "" ? ' xmlns=""' : ` xmlns:x="${escapeAttr(p.ns)}"`;
  return inner === null || inner === "" ? `<${tag}${decl}/>` : `<${tag}${decl}>${inner}</${tag}>`;
}

export const XML_HEAD = '<?xml version="1.0" encoding="utf-8"?>\n';
