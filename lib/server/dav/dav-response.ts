import "server-only";
import type { ServerResponse } from "node:http";
import { setImmediate } from "node:timers/promises";
import { AppError } from "../errors";
import { writeAnswer } from "../http/answer-early";
import { sendError } from "../http/node-route";
import type { DavTarget } from "./dav-path";
import { escapeXml, propElement, XML_HEAD, type PropName } from "./dav-xml";

/** A WebDAV status the API's error codes do not have (412 Precondition Failed, 502 for a foreign destination). */
export class DavError extends Error {
  constructor(
    readonly status: 412 | 502,
    message: string,
    readonly dav?: string,
  ) {
    super(message);
  }
}

export type PropStat = { status: number; props: { name: PropName; inner: string | null }[]; error?: string };

const REASONS: Record<number, string> = { 200: "OK", 201: "Created", 204: "No Content", 412: "Precondition Failed", 403: "Forbidden", 404: "Not Found", 409: "Conflict", 423: "Locked", 424: "Failed Dependency", 507: "Insufficient Storage" };
const statusLine = (status: number) => `HTTP/1.1 ${status} ${REASONS[status] ?? ""}`.trimEnd();

export type DavResponse = { href: string; propstats?: PropStat[]; status?: number };

function responseXml(r: DavResponse): string {
  const inner = r.propstats
    ? r.propstats
        .map((p) => `<D:propstat><D:prop>${p.props.map((x) => propElement(x.name, x.inner)).join("")}</D:prop><D:status>${statusLine(p.status)}</D:status>${p.error ?? ""}</D:propstat>`)
        .join("")
    : `<D:status>${statusLine(r.status ?? 200)}</D:status>`;
  return `<D:response><D:href>${escapeXml(r.href)}</D:href>${inner}</D:response>`;
}

const MULTISTATUS_OPEN = '<D:multistatus xmlns:D="DAV:">';
const MULTISTATUS_CLOSE = "</D:multistatus>";

/** 207 Multi-Status with one response per href, for a handful of them (PROPPATCH, COPY, MOVE, DELETE). */
export function sendMultistatus(res: ServerResponse, responses: DavResponse[]): void {
  sendXml(res, 207, MULTISTATUS_OPEN + responses.map(responseXml).join("") + MULTISTATUS_CLOSE);
}

/** Characters of XML per write of a streamed multistatus. */
const STREAM_CHUNK = 64 * 1024;

/**
 * 207 Multi-Status of any length (a PROPFIND listing, issue 25 finding 9): `responses` is
 * serialised as it is written, in chunks of about 64 KiB, and every chunk gives the event loop a
 * turn (and waits for the client when the socket is full), so a listing of thousands of items
 * never holds the process nor its whole answer in one string. A client gone stops the writing.
 */
export async function streamMultistatus(res: ServerResponse, responses: AsyncIterable<DavResponse>): Promise<void> {
  let chunk = XML_HEAD + MULTISTATUS_OPEN;
  let started = false;
  for await (const response of responses) {
    // The head goes out with the first response: a failure before it (the target's lookup) is still an error answer.
    if (!started) {
      res.writeHead(207, { "Content-Type": "application/xml; charset=utf-8" });
      started = true;
    }
    chunk += responseXml(response);
    if (chunk.length < STREAM_CHUNK) continue;
    if (!(await writeChunk(res, chunk))) return;
    chunk = "";
  }
  if (!started) res.writeHead(207, { "Content-Type": "application/xml; charset=utf-8" });
  res.end(chunk + MULTISTATUS_CLOSE);
}

/** Writes a chunk, then yields: until the socket drains when it is full, to the next turn otherwise. False once the client is gone. */
async function writeChunk(res: ServerResponse, chunk: string): Promise<boolean> {
  if (res.destroyed) return false;
  if (res.write(chunk)) {
    await setImmediate();
  } else {
    await new Promise<void>((resolve) => {
      const done = () => {
        res.off("drain", done);
        res.off("close", done);
        resolve();
      };
      res.on("drain", done);
      res.on("close", done);
    });
  }
  return !res.destroyed;
}

/** An XML answer; with the request's body still arriving (a refusal), that body is drained within bounds (answer-early.ts). */
export function sendXml(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  const bytes = Buffer.from(XML_HEAD + body, "utf8");
  void writeAnswer(res, status, { "Content-Type": "application/xml; charset=utf-8", "Content-Length": String(bytes.length), ...headers }, bytes);
}

/** A status with no body. */
export function sendEmpty(res: ServerResponse, status: number, headers: Record<string, string> = {}): void {
  void writeAnswer(res, status, { "Content-Length": "0", ...headers });
}

/** The resource a target names, or 404 (409 is for the methods that create). */
export function notFoundUnless<T>(resource: T | null, target: DavTarget): T {
  if (resource) return resource;
  throw new AppError("not_found", target.kind === "orphan" ? "A parent collection does not exist" : "Nothing exists at this path");
}

/**
 * An error as WebDAV clients expect it: the status of the service's AppError, a DAV:error body
 * when the error names a precondition (`details.dav`), otherwise the contract's JSON error body.
 */
export async function sendDavError(res: ServerResponse, method: string, error: unknown): Promise<void> {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (error instanceof DavError) {
    if (error.dav) sendXml(res, error.status, `<D:error xmlns:D="DAV:"><D:${error.dav}/></D:error>`);
    else sendEmpty(res, error.status);
    return;
  }
  const dav = error instanceof AppError && error.details && typeof error.details === "object" && "dav" in error.details ? String((error.details as { dav: string }).dav) : null;
  if (dav) {
    sendXml(res, error instanceof AppError ? error.status : 400, `<D:error xmlns:D="DAV:"><D:${dav}/></D:error>`, (error as AppError).headers);
    return;
  }
  // The contract's error body (sendError): only what toErrorAnswer cannot classify is logged, once,
  // with its request id; an expected answer (507 quota, 503 database away, any AppError) is no crash.
  await sendError(res, method, error);
}
