import "server-only";
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import type { ZodType } from "zod";
import { toErrorAnswer } from "../errors";
import { isBodyArriving, writeAnswer } from "./answer-early";
import { nodeBodySource } from "./body-source";
import type { LinkKind } from "../links/resolve-link-visitor";
import type { ResponseSpec } from "./check-response";
import { runOperation, type Auth, type Endpoint } from "./route";

/** A handler of server.ts's fast paths: the raw request, and the path's named parameters. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse, params: Record<string, string>) => Promise<void>;

/**
 * An endpoint answered on the raw Node request: the same steps as route() (sessions, AsId,
 * connection options, CSRF check, zod, the contract's error body) through runOperation, with the
 * body handed to the service as a Node stream instead of Next's web stream (issue 12), and a JSON
 * result written straight to the socket, without a web Response between (issue 26).
 */
export function nodeRoute<A extends Auth, P extends ZodType | undefined, Q extends ZodType | undefined, B extends ZodType | undefined, K extends LinkKind, R extends ResponseSpec | undefined>(
  operation: Endpoint<A, P, Q, B, K, R>,
): NodeHandler {
  return async (req, res, params) => {
    const request = toWebRequest(req);
    const source = nodeBodySource(req, request.headers);
    let result: unknown;
    try {
      result = await runOperation(operation, request, params, source);
    } catch (error) {
      source.release();
      await sendError(res, req.method ?? "GET", error);
      return;
    }
    // Whatever the service left unread is read and thrown away, so the answer arrives whole.
    source.release();
    await sendResult(res, result, req.method ?? "GET");
  };
}

/** What route()'s toResponse makes of a service's result, written to a Node response: a Response as is, nothing as 204, anything else as JSON. */
export async function sendResult(res: ServerResponse, result: unknown, method: string): Promise<void> {
  if (result instanceof Response) return sendResponse(res, result, method);
  if (result === undefined || result === null) return writeAnswer(res, 204, {});
  const body = Buffer.from(JSON.stringify(result));
  const headers = { "Content-Type": "application/json", "Cache-Control": "no-store", "Content-Length": String(body.length) };
  return writeAnswer(res, 200, headers, method === "HEAD" ? undefined : body);
}

/** The headers of a Node request as a web Request: authentication and conditions need nothing else. */
export function toWebRequest(req: IncomingMessage, url = new URL(req.url ?? "/", "http://localhost")): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string") headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  // server.ts has written the decided client address here; called without it (tests), the peer.
  const peer = req.socket?.remoteAddress;
  if (peer && !headers.has("x-forwarded-for")) headers.set("x-forwarded-for", peer);
  // As Next builds it: the scheme a trusted proxy forwarded (server.ts drops the header from anyone else).
  const scheme = headers.get("x-forwarded-proto")?.split(",")[0].trim() === "https" ? "https" : "http";
  const target = `${url.pathname}${url.search}`;
  // A Host header no URL can hold (a client's choice) names no origin of ours: the request still gets its answer.
  const absolute = `${scheme}://${req.headers.host ?? "localhost"}${target}`;
  return new Request(URL.canParse(absolute) ? absolute : `${scheme}://localhost${target}`, { method: req.method, headers });
}

/**
 * A web Response written to a Node response. An answer given while the request's body is still
 * arriving (a refusal) is small: it is written whole, with its length, then the rest of the body
 * is drained within bounds (answer-early.ts).
 */
export async function sendResponse(res: ServerResponse, response: Response, method = "GET"): Promise<void> {
  const headers: OutgoingHttpHeaders = Object.fromEntries(response.headers);
  // Several cookies are several headers (Object.fromEntries keeps the last).
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 1) headers["set-cookie"] = cookies;
  if (isBodyArriving(res.req)) {
    const body = method === "HEAD" || !response.body ? undefined : Buffer.from(await response.arrayBuffer());
    if (body) headers["content-length"] = String(body.length);
    await writeAnswer(res, response.status, headers, body);
    return;
  }
  res.writeHead(response.status, headers);
  if (!response.body || method === "HEAD") {
    void response.body?.cancel().catch(() => {});
    res.end();
    return;
  }
  await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), res).catch(() => res.destroy());
}

/** The contract's error body on a Node response (or a cut connection once bytes went out). */
export async function sendError(res: ServerResponse, method: string, error: unknown): Promise<void> {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const answer = toErrorAnswer(error);
  const body = Buffer.from(JSON.stringify(answer.body));
  const headers = { "Content-Type": "application/json", "Cache-Control": "no-store", ...answer.headers, "Content-Length": String(body.length) };
  await writeAnswer(res, answer.status, headers, method === "HEAD" ? undefined : body);
}
