import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import { loadOnce } from "../boot/load-once";
import { OAUTH2_ENDPOINTS } from "../oauth2/oauth2-endpoints";
import { apiDispatcher } from "./api-dispatch";
import { decodeSegment, type RouteFile } from "./api-router";
import { lazyHandler } from "./lazy-handler";
import type { NodeHandler } from "./node-route";
import { apiSecurityHeaders } from "./security-headers";

// The fast paths' modules load with the first request each serves, not at start (issue 26, cold start).
const downloads = () => import("../downloads/serve-download");
const userZips = () => import("../zip/serve-user-zip");
const uploads = loadOnce(async () => {
  const [{ nodeRoute }, endpoints] = await Promise.all([import("./node-route"), import("../uploads/upload-endpoints")]);
  return { uploadFile: nodeRoute(endpoints.uploadFileEndpoint), replaceContent: nodeRoute(endpoints.replaceContentEndpoint), deposit: nodeRoute(endpoints.depositEndpoint) };
});

/**
 * The fast paths: each calls the same services and the same authentication as its `app/api` or
 * `pages/api` route, which stays as the contract's table of contents (and serves `next dev`).
 * Named groups of a pattern are the path's parameters; other methods go on to the API's route files.
 */
const FAST_PATHS: { methods: string[]; pattern: RegExp; handler: NodeHandler }[] = [
  { methods: ["GET", "HEAD"], pattern: /^\/api\/file\/[^/]+\/download\/?$/, handler: lazyHandler(async () => (await downloads()).downloadById) },
  { methods: ["GET", "HEAD"], pattern: /^\/api\/file\/download\/?$/, handler: lazyHandler(async () => (await downloads()).downloadByToken) },
  { methods: ["GET", "HEAD"], pattern: /^\/api\/zip\/share\/[^/]+\/?$/, handler: lazyHandler(async () => (await import("../shares/serve-zip")).serveShareZip) },
  { methods: ["GET", "HEAD"], pattern: /^\/api\/zip\/folder\/[^/]+\/?$/, handler: lazyHandler(async () => (await userZips()).zipFolder) },
  { methods: ["GET", "HEAD"], pattern: /^\/api\/zip\/?$/, handler: lazyHandler(async () => (await userZips()).zipSelection) },
  { methods: ["POST"], pattern: /^\/api\/file\/upload\/?$/, handler: lazyHandler(async () => (await uploads()).uploadFile) },
  { methods: ["PUT", "PATCH"], pattern: /^\/api\/file\/(?<fileId>[^/]+)\/upload\/?$/, handler: lazyHandler(async () => (await uploads()).replaceContent) },
  { methods: ["POST"], pattern: /^\/api\/ulink\/key\/(?<key>[^/]+)\/upload\/?$/, handler: lazyHandler(async () => (await uploads()).deposit) },
  { methods: ["POST", "HEAD", "PATCH", "DELETE", "OPTIONS"], pattern: /^\/api\/tus(\/[^/]*)?\/?$/, handler: lazyHandler(async () => (await import("../uploads/tus-server")).tusNodeHandler) },
  // The OAuth2 authorization server (api.md, "OAuth2"); GET /oauth2/authorize is Next's consent page.
  ...OAUTH2_ENDPOINTS,
  // WebDAV (api.md, "WebDAV and object storage"): every method, lib/server/dav dispatches.
  { methods: ["*"], pattern: /^\/dav(\/.*)?$/, handler: lazyHandler(async () => (await import("../dav/dav-handler")).davHandler) },
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
