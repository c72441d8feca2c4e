import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import nextEnv from "@next/env";
import next from "next";
import { downloadById, downloadByToken } from "./lib/server/downloads/serve-download";
import { accelRedirectPrefix } from "./lib/server/downloads/accel-redirect";
import { API_ROUTES } from "./app/api/route-table";
import { apiDispatcher } from "./lib/server/http/api-dispatch";
import { davHandler } from "./lib/server/dav/dav-handler";
import { writeAnswer } from "./lib/server/http/answer-early";
import { clientAddress, isTrustedProxy, parseTrustedProxies } from "./lib/server/http/client-address";
import { nodeRoute, type NodeHandler } from "./lib/server/http/node-route";
import { OAUTH2_ENDPOINTS } from "./lib/server/oauth2/authorization-server";
import { serveShareZip } from "./lib/server/shares/serve-zip";
import { tusNodeHandler } from "./lib/server/uploads/tus-server";
import { depositEndpoint, replaceContentEndpoint, uploadFileEndpoint } from "./lib/server/uploads/upload-endpoints";

// `npm start` runs this server in front of Next (architecture.md, "One Node server in front of
// Next"). It decides the client's address from the socket (Next keeps any X-Forwarded-For a client
// sends, so a forged header would pass for the client in throttles, connection options and logs),
// it answers the paths where bytes matter on the raw request, without Next's per-request and
// per-chunk work, and the whole JSON API from the route files of app/api (api-dispatch.ts);
// pages, static files and next-auth's routes go to Next.

/**
 * The fast paths: each calls the same services and the same authentication as its `app/api` or
 * `pages/api` route, which stays as the contract's table of contents (and serves `next dev`).
 * Named groups of a pattern are the path's parameters; other methods go to Next (405 there).
 */
const FAST_PATHS: { methods: string[]; pattern: RegExp; handler: NodeHandler }[] = [
  { methods: ["GET", "HEAD"], pattern: /^\/api\/file\/[^/]+\/download\/?$/, handler: downloadById },
  { methods: ["GET", "HEAD"], pattern: /^\/api\/file\/download\/?$/, handler: downloadByToken },
  { methods: ["GET", "HEAD"], pattern: /^\/api\/zip\/share\/[^/]+\/?$/, handler: serveShareZip },
  { methods: ["POST"], pattern: /^\/api\/file\/upload\/?$/, handler: nodeRoute(uploadFileEndpoint) },
  { methods: ["PUT", "PATCH"], pattern: /^\/api\/file\/(?<fileId>[^/]+)\/upload\/?$/, handler: nodeRoute(replaceContentEndpoint) },
  { methods: ["POST"], pattern: /^\/api\/ulink\/key\/(?<key>[^/]+)\/upload\/?$/, handler: nodeRoute(depositEndpoint) },
  { methods: ["POST", "HEAD", "PATCH", "DELETE", "OPTIONS"], pattern: /^\/api\/tus(\/[^/]*)?\/?$/, handler: tusNodeHandler },
  // The OAuth2 authorization server (api.md, "OAuth2"); GET /oauth2/authorize is Next's consent page.
  ...OAUTH2_ENDPOINTS,
  // WebDAV (api.md, "WebDAV and object storage"): every method, lib/server/dav dispatches.
  { methods: ["*"], pattern: /^\/dav(\/.*)?$/, handler: davHandler },
];

function fastPathFor(method: string | undefined, pathname: string): { handler: NodeHandler; params: Record<string, string> } | undefined {
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

/** next-auth's own routes need Next's request scope (cookies()): Next answers them. */
const dispatchApi = apiDispatcher(API_ROUTES, (template) => template === "/api/auth/[...nextauth]");

/** What next.config.ts adds to the /api answers Next serves (security-headers.ts): our own pages frame the previews. */
function setApiHeaders(res: ServerResponse, pathname: string) {
  res.setHeader("X-Content-Type-Options", "nosniff");
  if (!/^\/api\/preview(\/|$)/.test(pathname)) res.setHeader("X-Frame-Options", "DENY");
}

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
    const pathname = (req.url ?? "/").split("?", 1)[0];
    const fast = fastPathFor(req.method, pathname);
    const isApi = pathname === "/api" || pathname.startsWith("/api/");
    if (fast || isApi) setApiHeaders(res, pathname);
    const api = fast || !isApi ? undefined : dispatchApi(req, res, pathname);
    const answered = fast ? fast.handler(req, res, fast.params) : (api ?? handle(req, res));
    answered.catch((error: unknown) => {
      console.error("[coffre] request failed before an answer:", error);
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
