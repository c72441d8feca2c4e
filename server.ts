import { createServer, type IncomingMessage } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import nextEnv from "@next/env";
import next from "next";
import { loadOnce } from "./lib/server/boot/load-once";
import { accelRedirectPrefix } from "./lib/server/downloads/accel-redirect-prefix";
import { writeAnswer } from "./lib/server/http/answer-early";
import { clientAddress, isTrustedProxy, parseTrustedProxies } from "./lib/server/http/client-address";
import { lazyHandler } from "./lib/server/http/lazy-handler";
import type { NodeHandler } from "./lib/server/http/node-route";
import { OAUTH2_ENDPOINTS } from "./lib/server/oauth2/oauth2-endpoints";

// `npm start` runs this server in front of Next (architecture.md, "One Node server in front of
// Next"). It decides the client's address from the socket (Next keeps any X-Forwarded-For a client
// sends, so a forged header would pass for the client in throttles, connection options and logs),
// and it answers the paths where bytes matter on the raw request, without Next's per-request and
// per-chunk work; every other request goes to Next.

// The fast paths' modules load with the first request each serves, not at start (issue 26, cold start).
const downloads = () => import("./lib/server/downloads/serve-download");
const uploads = loadOnce(async () => {
  const [{ nodeRoute }, endpoints] = await Promise.all([import("./lib/server/http/node-route"), import("./lib/server/uploads/upload-endpoints")]);
  return { uploadFile: nodeRoute(endpoints.uploadFileEndpoint), replaceContent: nodeRoute(endpoints.replaceContentEndpoint), deposit: nodeRoute(endpoints.depositEndpoint) };
});

/**
 * The fast paths: each calls the same services and the same authentication as its `app/api` or
 * `pages/api` route, which stays as the contract's table of contents (and serves `next dev`).
 * Named groups of a pattern are the path's parameters; other methods go to Next (405 there).
 */
const FAST_PATHS: { methods: string[]; pattern: RegExp; handler: NodeHandler }[] = [
  { methods: ["GET", "HEAD"], pattern: /^\/api\/file\/[^/]+\/download\/?$/, handler: lazyHandler(async () => (await downloads()).downloadById) },
  { methods: ["GET", "HEAD"], pattern: /^\/api\/file\/download\/?$/, handler: lazyHandler(async () => (await downloads()).downloadByToken) },
  { methods: ["GET", "HEAD"], pattern: /^\/api\/zip\/share\/[^/]+\/?$/, handler: lazyHandler(async () => (await import("./lib/server/shares/serve-zip")).serveShareZip) },
  { methods: ["POST"], pattern: /^\/api\/file\/upload\/?$/, handler: lazyHandler(async () => (await uploads()).uploadFile) },
  { methods: ["PUT", "PATCH"], pattern: /^\/api\/file\/(?<fileId>[^/]+)\/upload\/?$/, handler: lazyHandler(async () => (await uploads()).replaceContent) },
  { methods: ["POST"], pattern: /^\/api\/ulink\/key\/(?<key>[^/]+)\/upload\/?$/, handler: lazyHandler(async () => (await uploads()).deposit) },
  { methods: ["POST", "HEAD", "PATCH", "DELETE", "OPTIONS"], pattern: /^\/api\/tus(\/[^/]*)?\/?$/, handler: lazyHandler(async () => (await import("./lib/server/uploads/tus-server")).tusNodeHandler) },
  // The OAuth2 authorization server (api.md, "OAuth2"); GET /oauth2/authorize is Next's consent page.
  ...OAUTH2_ENDPOINTS,
  // WebDAV (api.md, "WebDAV and object storage"): every method, lib/server/dav dispatches.
  { methods: ["*"], pattern: /^\/dav(\/.*)?$/, handler: lazyHandler(async () => (await import("./lib/server/dav/dav-handler")).davHandler) },
];

function fastPathFor(method: string | undefined, url: string | undefined): { handler: NodeHandler; params: Record<string, string> } | undefined {
  const pathname = (url ?? "/").split("?", 1)[0];
  for (const path of FAST_PATHS) {
    if (!path.methods.includes(method ?? "GET") && !path.methods.includes("*")) continue;
    const match = path.pattern.exec(pathname);
    if (!match) continue;
    const params = Object.fromEntries(Object.entries(match.groups ?? {}).map(([name, value]) => [name, safeDecode(value)]));
    return { handler: path.handler, params };
  }
  return undefined;
}

/** Path parameters arrive percent-encoded, as Next would decode them; a malformed one stays raw (zod refuses it). */
function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** What next.config.ts adds to every /api answer that Next serves. */
const API_HEADERS = { "X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY" };

// The .env file, as `next start` reads it, before this server reads its own variables.
nextEnv.loadEnvConfig(process.cwd(), false);
// The workers written in TypeScript run as bundled beside this server by build:server (bundled-worker.ts).
process.env.COFFRE_WORKERS_DIR = path.dirname(fileURLToPath(import.meta.url));

const port = Number(process.env.PORT ?? 3000);
// Not HOSTNAME: shells set it to the machine's name.
const host = process.env.HOST || undefined;
const trusted = parseTrustedProxies(process.env.TRUSTED_PROXIES);
// A wrong ACCEL_REDIRECT_PREFIX stops the start rather than every download.
accelRedirectPrefix();

const app = next({ dev: false, dir: process.cwd(), port, hostname: host ?? "localhost" });

/**
 * Rewrites the forwarding headers once, here, so that everything behind reads one truth:
 * X-Forwarded-For becomes the client's address alone, and the forwarded host and scheme survive
 * only from a trusted proxy (a client-chosen host would otherwise reach links built from it).
 */
function normaliseForwarding(req: IncomingMessage) {
  const peer = req.socket.remoteAddress;
  const fromProxy = isTrustedProxy(peer, trusted);
  req.headers["x-forwarded-for"] = clientAddress(peer, req.headers["x-forwarded-for"], trusted);
  delete req.headers["x-real-ip"];
  if (!fromProxy) {
    delete req.headers["x-forwarded-host"];
    delete req.headers["x-forwarded-proto"];
    delete req.headers["x-forwarded-port"];
  }
}

async function main() {
  await app.prepare();
  const handle = app.getRequestHandler();
  const server = createServer((req, res) => {
    normaliseForwarding(req);
    const fast = fastPathFor(req.method, req.url);
    if (fast) {
      for (const [name, value] of Object.entries(API_HEADERS)) res.setHeader(name, value);
    }
    const answered = fast ? fast.handler(req, res, fast.params) : handle(req, res);
    answered.catch((error: unknown) => {
      console.error("[coffre] request failed before Next could answer:", error);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const body = Buffer.from(JSON.stringify({ error: "Internal error", code: "internal_error" }));
      void writeAnswer(res, 500, { "Content-Type": "application/json", "Content-Length": String(body.length) }, body);
    });
  });
  // Idle keep-alive connections live past a client's or a proxy's own reuse window (nginx and most
  // balancers keep theirs 60 s): with Node's 5 s, a request sent as the server closed the socket
  // reached a dead connection (ECONNRESET on the client, seen in the OAuth2 journey).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.listen(port, host, () => console.log(`[coffre] listening on http://${host ?? "localhost"}:${port}`));

  // Stop accepting, let requests under way finish (30 s at most), then leave.
  const stop = () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 30_000).unref();
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

main().catch((error: unknown) => {
  console.error("[coffre] could not start:", error);
  process.exit(1);
});
