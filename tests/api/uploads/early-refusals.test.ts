import { randomBytes } from "node:crypto";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { davHandler } from "@/lib/server/dav/dav-handler";
import { DRAIN_MAX_BYTES, DRAIN_MAX_MS } from "@/lib/server/http/answer-early";
import { nodeRoute, type NodeHandler } from "@/lib/server/http/node-route";
import { tokenEndpoint } from "@/lib/server/oauth2/authorization-server";
import { tusNodeHandler } from "@/lib/server/uploads/tus-server";
import { depositEndpoint, replaceContentEndpoint, uploadFileEndpoint } from "@/lib/server/uploads/upload-endpoints";
import { createTestUser, type TestUser } from "../../helpers/factories";
import { allRightsBut, createFolder, grantRight, uploadText } from "../../helpers/files";
import { serveNode } from "../../helpers/node-server";
import { openDatabase } from "../../helpers/upload-factories";

// Issue 25, finding 19: an early refusal on the raw request (server.ts's fast paths) closed the
// connection while the client was still sending (EPIPE: the client never read its 4xx), or,
// kept alive, read a refused body to its end however large. Now the answer is written whole,
// the rest is read and thrown away up to a bound, and only then does the connection close.
// Real sockets, the handlers server.ts mounts, bodies larger than the bound, many times over.

const MiB = 1 << 20;
/** What a server may read beyond the drain bound: what was in flight when it refused (stream buffers of 1 MiB each, the socket's). */
const SLACK = 8 * MiB;

const FAST_PATHS: { methods: string[]; pattern: RegExp; handler: NodeHandler }[] = [
  { methods: ["POST"], pattern: /^\/api\/file\/upload$/, handler: nodeRoute(uploadFileEndpoint) },
  { methods: ["PUT"], pattern: /^\/api\/file\/(?<fileId>[^/]+)\/upload$/, handler: nodeRoute(replaceContentEndpoint) },
  { methods: ["POST"], pattern: /^\/api\/ulink\/key\/(?<key>[^/]+)\/upload$/, handler: nodeRoute(depositEndpoint) },
  { methods: ["PATCH"], pattern: /^\/api\/tus(\/[^/]*)?$/, handler: tusNodeHandler },
  { methods: ["POST"], pattern: /^\/oauth2\/token$/, handler: tokenEndpoint },
  { methods: ["PUT"], pattern: /^\/dav(\/.*)?$/, handler: davHandler },
];

/** The server's side of each connection, by the client's port: how much of a body it read. */
const serverSockets = new Map<number, Socket>();
let server: Awaited<ReturnType<typeof serveNode>>;
let owner: TestUser;
let other: TestUser;
let small: TestUser;
let sharedId: number;
let sharedVersionId: number;

beforeAll(async () => {
  await openDatabase();
  server = await serveNode(async (req: IncomingMessage, res: ServerResponse) => {
    serverSockets.set(req.socket.remotePort!, req.socket);
    const pathname = (req.url ?? "/").split("?", 1)[0];
    const path = FAST_PATHS.find((p) => p.methods.includes(req.method ?? "") && p.pattern.test(pathname))!;
    await path.handler(req, res, path.pattern.exec(pathname)!.groups ?? {});
  });
  owner = await createTestUser();
  other = await createTestUser();
  small = await createTestUser({ quota: MiB });
  const shared = await createFolder(owner, owner.privateRootId!, "early-refusals");
  sharedId = shared.id;
  sharedVersionId = (await uploadText(owner, shared.id, "doc.txt", "content")).version.id;
  // Browse and read: no write, no edit.
  await grantRight(shared.id, other.id, allRightsBut("write", "edit", "delete"));
}, 180_000);

afterAll(async () => {
  await server.close();
});

type Exchange = { status?: number; body: string; answered: boolean; error?: Error; serverRead: number; ms: number };
type Sending = {
  method: string;
  path: string;
  headers?: Record<string, string>;
  head?: Buffer;
  /** Bytes of filler after `head`, written as fast as the socket takes them, or one 64 KiB block per `paceMs`. */
  fill: number;
  tail?: Buffer;
  /** The client asks for `Connection: close` (curl with -H, HTTP/1.0 clients, proxies). */
  close: boolean;
  /** No Content-Length: chunked transfer encoding. */
  chunked?: boolean;
  paceMs?: number;
};

/** One request over a fresh connection; resolves once the client is done, with what it read and what the server read. */
function send(o: Sending): Promise<Exchange> {
  const head = o.head ?? Buffer.alloc(0);
  const tail = o.tail ?? Buffer.alloc(0);
  const agent = new http.Agent({ keepAlive: !o.close, maxSockets: 1 });
  const headers: Record<string, string> = { ...o.headers, ...(o.close ? { connection: "close" } : {}) };
  if (!o.chunked) headers["content-length"] = String(head.length + o.fill + tail.length);
  const started = performance.now();
  return new Promise((resolve) => {
    const exchange: Exchange = { body: "", answered: false, serverRead: 0, ms: 0 };
    let port = 0;
    const req = http.request(new URL(o.path, server.url), { method: o.method, headers, agent }, (res) => {
      exchange.status = res.statusCode;
      res.setEncoding("utf8");
      res.on("data", (d: string) => (exchange.body += d));
      res.on("end", () => (exchange.answered = true));
      res.on("error", (error) => (exchange.error ??= error));
    });
    req.on("socket", (socket) => socket.once("connect", () => (port = socket.localPort!)));
    req.on("error", (error) => (exchange.error ??= error));
    req.on("close", () => {
      // The server's side may still hold a few chunks in flight: let it settle.
      setTimeout(() => {
        exchange.serverRead = serverSockets.get(port)?.bytesRead ?? 0;
        exchange.ms = performance.now() - started;
        agent.destroy();
        resolve(exchange);
      }, 50);
    });
    const block = randomBytes(64 * 1024);
    let sent = 0;
    const pump = () => {
      while (sent < o.fill) {
        if (req.destroyed) return;
        const slice = block.subarray(0, Math.min(block.length, o.fill - sent));
        sent += slice.length;
        const more = req.write(slice);
        if (o.paceMs) return void setTimeout(pump, o.paceMs);
        if (!more) return void req.once("drain", pump);
      }
      if (!req.destroyed) req.end(tail);
    };
    req.write(head);
    pump();
  });
}

function multipart(fields: Record<string, string | number>, fileName = "big.bin") {
  const boundary = `----early${randomBytes(6).toString("hex")}`;
  let head = "";
  for (const [name, value] of Object.entries(fields)) head += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  head += `--${boundary}\r\nContent-Disposition: form-data; name="targetFile"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  return { headers: { "content-type": `multipart/form-data; boundary=${boundary}` }, head: Buffer.from(head), tail: Buffer.from(`\r\n--${boundary}--\r\n`) };
}

const bearer = (user: TestUser) => ({ authorization: `Bearer ${user.token}` });

/** The client read the whole refusal (status and body), and the server read no more than the bound. */
function expectRefused(exchange: Exchange, status: number, fill: number, bodyPattern: RegExp = /"code":"/) {
  expect(exchange.answered, `the answer must be read whole, not ${exchange.error?.message}`).toBe(true);
  expect(exchange.status, exchange.body).toBe(status);
  expect(exchange.body).toMatch(bodyPattern);
  if (fill > DRAIN_MAX_BYTES + SLACK) expect(exchange.serverRead, `read ${exchange.serverRead} bytes of a ${fill}-byte body`).toBeLessThan(DRAIN_MAX_BYTES + SLACK);
}

describe("an early refusal on the raw request", () => {
  it("of a multipart upload (no write right): the client reads its 403 every time, the server reads at most the bound", async () => {
    const form = multipart({ folderId: sharedId });
    for (let round = 0; round < 10; round++) {
      for (const close of [true, false]) {
        for (const fill of [1 * MiB, 6 * MiB, 32 * MiB]) {
          const exchange = await send({ method: "POST", path: "/api/file/upload", headers: { ...form.headers, ...bearer(other) }, head: form.head, tail: form.tail, fill, close });
          expectRefused(exchange, 403, fill);
        }
      }
    }
  }, 120_000);

  it("keeps the connection of a small refused body: the next request goes over it", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const form = multipart({ folderId: sharedId });
    const post = () =>
      new Promise<{ status?: number; reused: boolean }>((resolve, reject) => {
        const body = Buffer.concat([form.head, randomBytes(MiB), form.tail]);
        const req = http.request(new URL("/api/file/upload", server.url), { method: "POST", agent, headers: { ...form.headers, ...bearer(other), "content-length": String(body.length) } }, (res) => {
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode, reused: req.reusedSocket }));
        });
        req.on("error", reject);
        req.end(body);
      });
    expect(await post()).toEqual({ status: 403, reused: false });
    expect(await post()).toEqual({ status: 403, reused: true });
    agent.destroy();
  });

  it("of every raw upload path: quota (507), a chunk over its size (413), a drop link (404), tus (404), a new content (403), WebDAV (403, 507), OAuth2 (413)", async () => {
    const fill = 32 * MiB;
    const overQuota = multipart({ folderId: small.privateRootId! });
    const chunk = multipart({ folderId: owner.privateRootId!, chunk: 0, chunks: 3, chunksSize: 1000, fileSize: 3000 }, "chunked.bin");
    const deposit = multipart({});
    const octets = { "content-type": "application/octet-stream" };
    const cases: { name: string; status: number; sending: Omit<Sending, "close" | "fill">; body?: RegExp }[] = [
      { name: "multipart over the quota", status: 507, sending: { method: "POST", path: "/api/file/upload", headers: { ...overQuota.headers, ...bearer(small) }, head: overQuota.head, tail: overQuota.tail } },
      { name: "a chunk over its declared size", status: 413, sending: { method: "POST", path: "/api/file/upload", headers: { ...chunk.headers, ...bearer(owner) }, head: chunk.head, tail: chunk.tail } },
      { name: "an unknown drop link", status: 404, sending: { method: "POST", path: `/api/ulink/key/${"A".repeat(24)}/upload`, headers: deposit.headers, head: deposit.head, tail: deposit.tail } },
      {
        name: "tus, an unknown upload",
        status: 404,
        sending: { method: "PATCH", path: `/api/tus/${"b".repeat(32)}`, headers: { ...bearer(owner), "tus-resumable": "1.0.0", "upload-offset": "0", "content-type": "application/offset+octet-stream" } },
      },
      { name: "a new content without edit", status: 403, sending: { method: "PUT", path: `/api/file/${sharedVersionId}/upload`, headers: { ...octets, ...bearer(other) } } },
      { name: "WebDAV PUT without write", status: 403, sending: { method: "PUT", path: "/dav/early-refusals/new.bin", headers: { ...octets, ...bearer(other) } } },
      { name: "WebDAV PUT over the quota, chunked", status: 507, sending: { method: "PUT", path: "/dav/Private/big.bin", headers: { ...octets, ...bearer(small) }, chunked: true } },
      { name: "OAuth2 token, an oversized form", status: 413, sending: { method: "POST", path: "/oauth2/token", headers: { "content-type": "application/x-www-form-urlencoded" } }, body: /"error":"invalid_request"/ },
    ];
    for (const c of cases) {
      for (let round = 0; round < 3; round++) {
        for (const close of [true, false]) {
          const exchange = await send({ ...c.sending, fill, close });
          expect.soft(exchange.answered, `${c.name}, ${close ? "Connection: close" : "keep-alive"}: ${exchange.error?.message}`).toBe(true);
          expectRefused(exchange, c.status, fill, c.body);
        }
      }
    }
  }, 180_000);

  it("drains a slow refused body for a bounded time, then closes", async () => {
    const form = multipart({ folderId: sharedId });
    // 64 KiB every 100 ms: 8 MiB would take 13 s.
    const exchange = await send({ method: "POST", path: "/api/file/upload", headers: { ...form.headers, ...bearer(other) }, head: form.head, tail: form.tail, fill: 8 * MiB, close: false, paceMs: 100 });
    expectRefused(exchange, 403, 8 * MiB);
    expect(exchange.ms).toBeLessThan(DRAIN_MAX_MS + 3_000);
    expect(exchange.serverRead).toBeLessThan(8 * MiB);
  }, 60_000);
});
