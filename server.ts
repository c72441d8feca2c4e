import { createServer, type IncomingMessage } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import nextEnv from "@next/env";
import next from "next";
import { bootOnce } from "./lib/server/boot/start";
import { accelRedirectPrefix } from "./lib/server/downloads/accel-redirect-prefix";
import { API_ROUTES } from "./app/api/route-table";
import { writeAnswer } from "./lib/server/http/answer-early";
import { nodePaths } from "./lib/server/http/node-paths";
import { clientAddress, isTrustedProxy, parseTrustedProxies } from "./lib/server/http/client-address";

// `npm start` runs this server in front of Next (architecture.md, "One Node server in front of
// Next"). It decides the client's address from the socket (Next keeps any X-Forwarded-For a client
// sends, so a forged header would pass for the client in throttles, connection options and logs),
// it answers the paths where bytes matter on the raw request, without Next's per-request and
// per-chunk work, and the whole JSON API from the route files of app/api (node-paths.ts);
// pages, static files and next-auth's routes go to Next.

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

const answerOnNode = nodePaths(API_ROUTES);
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
  // The API is answered here, not by Next, which waited for its instrumentation: wait for the boot.
  await bootOnce();
  const handle = app.getRequestHandler();
  const server = createServer((req, res) => {
    normaliseForwarding(req);
    const answered = answerOnNode(req, res) ?? handle(req, res);
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
  // A client has this long to send a request's headers (slowloris).
  server.headersTimeout = 66_000;
  // No bound on a whole request: an upload of gigabytes over a slow link outlasts any (Node's 300 s
  // default cut them with a 408). A sender, or a reader, that stops for 5 minutes loses its socket.
  server.requestTimeout = 0;
  server.timeout = 300_000;
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
