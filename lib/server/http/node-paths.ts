import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import { downloadById, downloadByToken } from "../downloads/serve-download";
import { davHandler } from "../dav/dav-handler";
import { OAUTH2_ENDPOINTS } from "../oauth2/authorization-server";
import { serveShareZip } from "../shares/serve-zip";
import { tusNodeHandler } from "../uploads/tus-server";
import { depositEndpoint, replaceContentEndpoint, uploadFileEndpoint } from "../uploads/upload-endpoints";
import { apiDispatcher } from "./api-dispatch";
import { decodeSegment, type RouteFile } from "./api-router";
import { nodeRoute, type NodeHandler } from "./node-route";
import { apiSecurityHeaders } from "./security-headers";

/**
 * The fast paths: each calls the same services and the same authentication as its `app/api` or
 * `pages/api` route, which stays as the contract's table of contents (and serves `next dev`).
 * Named groups of a pattern are the path's parameters; other methods go on to the API's route files.
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

function fastPathFor(method: string, pathname: string): { handler: NodeHandler; params: Record<string, string> } | undefined {
  for (const path of FAST_PATHS) {
    if (!path.methods.includes(method) && !path.methods.includes("*")) continue;
    const match = path.pattern.exec(pathname);
    if (!match) continue;
    const params = Object.fromEntries(Object.entries(match.groups ?? {}).map(([name, value]) => [name, decodeSegment(value)]));
    return { handler: path.handler, params };
  }
  return undefined;
}

/**
 * What server.ts answers itself, on the raw Node request (issue 12, then issue 26): the fast paths
 * where bytes matter, and every other /api path from the route files of app/api (`routes`, the
 * generated route table: lib cannot import app). The answer carries the API's security headers.
 * Returns undefined for what Next answers: pages, static files, next-auth's own routes (they need
 * Next's request scope).
 */
export function nodePaths(routes: RouteFile[]) {
  const dispatchApi = apiDispatcher(routes, (template) => template === "/api/auth/[...nextauth]");
  return function answer(req: IncomingMessage, res: ServerResponse): Promise<void> | undefined {
    const pathname = (req.url ?? "/").split("?", 1)[0];
    const fast = fastPathFor(req.method ?? "GET", pathname);
    const isApi = pathname === "/api" || pathname.startsWith("/api/");
    if (!fast && !isApi) return undefined;
    for (const [name, value] of Object.entries(apiSecurityHeaders(pathname))) res.setHeader(name, value);
    return fast ? fast.handler(req, res, fast.params) : dispatchApi(req, res, pathname);
  };
}
