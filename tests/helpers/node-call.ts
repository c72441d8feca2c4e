import { randomUUID } from "node:crypto";
import http, { type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { nodeRoute, type NodeHandler } from "@/lib/server/http/node-route";
import type { Handler } from "@/lib/server/http/route";

/**
 * TEST_VIA=node: the tests' calls go over real HTTP to the path `npm start` serves them by
 * (server.ts runs each route() operation through nodeRoute on the raw Node request), instead of
 * calling the route's export as `next dev` does (issue 26: every test on both paths).
 */
export const VIA_NODE = process.env.TEST_VIA === "node";

/** Which operation and parameters the next request with this id runs: routing is api-dispatch.ts's own test. */
const pending = new Map<string, { operation: NodeHandler; params: Record<string, string> }>();
const operations = new WeakMap<Handler, NodeHandler>();
const CALL_HEADER = "x-coffre-test-call";
const agent = new http.Agent({ keepAlive: true });
let listening: Promise<string> | undefined;

function server(): Promise<string> {
  listening ??= new Promise((resolve) => {
    const srv = http.createServer((req, res) => {
      const id = String(req.headers[CALL_HEADER]);
      delete req.headers[CALL_HEADER];
      const call = pending.get(id);
      pending.delete(id);
      if (!call) return void res.writeHead(500).end("unknown test call");
      call.operation(req, res, call.params).catch((error: unknown) => {
        console.error("[test] node call failed:", error);
        res.destroy();
      });
    });
    srv.keepAliveTimeout = 65_000;
    srv.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(srv.address() as AddressInfo).port}`));
    srv.unref();
  });
  return listening;
}

/**
 * Whether a call can go through the Node path: a route() operation, with a body of known bytes.
 * A body given as a stream (a test of how the service reads it: counted, cut mid-way) and a
 * Content-Length that lies go to the export directly: over a socket, the kernel's buffers and a
 * cut connection change what such a test measures (tests/api/uploads/early-refusals.test.ts
 * covers them on the raw request).
 */
export function nodeCallable(handler: Handler, body: BodyInit | undefined, headers: Headers): boolean {
  if (!VIA_NODE || handler.endpoint === undefined || body instanceof ReadableStream) return false;
  const declared = headers.get("content-length");
  const length = byteLength(body);
  return declared === null || length === undefined || Number(declared) === length;
}

function byteLength(body: BodyInit | undefined): number | undefined {
  if (typeof body === "string") return Buffer.byteLength(body);
  if (ArrayBuffer.isView(body) || body instanceof ArrayBuffer) return body.byteLength;
  if (body instanceof Blob) return body.size;
  return undefined;
}

/**
 * `request` sent to `handler`'s operation over HTTP, with the Host it names. A body of known size
 * goes with its Content-Length, as fetch sends it; a stream goes chunked. Called in process, a
 * request has no client address: over HTTP it says the same (`unknown`) unless the test set one.
 */
export async function callViaNode(handler: Handler, request: Request, params: Record<string, string>, streamed: boolean): Promise<Response> {
  let operation = operations.get(handler);
  if (!operation) {
    operation = nodeRoute(handler.endpoint!);
    operations.set(handler, operation);
  }
  const base = await server();
  const id = randomUUID();
  pending.set(id, { operation, params });
  const url = new URL(request.url);
  const headers: Record<string, string> = Object.fromEntries(request.headers);
  headers.host = url.host;
  headers["x-forwarded-for"] ??= "unknown";
  headers[CALL_HEADER] = id;
  const body = request.body && !streamed ? Buffer.from(await request.arrayBuffer()) : undefined;
  if (body) headers["content-length"] = String(body.length);
  return new Promise((resolve, reject) => {
    const out = http.request(`${base}${url.pathname}${url.search}`, { method: request.method, headers, setHost: false, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => {
        const status = res.statusCode ?? 500;
        const noBody = status === 204 || status === 304 || request.method === "HEAD";
        resolve(new Response(noBody ? null : Buffer.concat(chunks), { status, headers: webHeaders(res.headers) }));
      });
    });
    out.on("error", reject);
    if (body) out.end(body);
    else if (request.body) Readable.fromWeb(request.body as WebReadableStream<Uint8Array>).pipe(out);
    else out.end();
  });
}

function webHeaders(headers: IncomingHttpHeaders): Headers {
  const out = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (Array.isArray(value)) for (const v of value) out.append(name, v);
    else if (value !== undefined) out.set(name, value);
  }
  return out;
}
