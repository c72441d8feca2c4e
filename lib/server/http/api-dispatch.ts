import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import { apiRouter, type RouteFile } from "./api-router";
import { writeAnswer } from "./answer-early";
import { loadOnce } from "../boot/load-once";
import type { NodeHandler } from "./node-route";
import type { Handler } from "./route";

type RouteModule = Partial<Record<string, Handler>>;

// With the route modules themselves, the request machinery (sessions, the database) loads with the first API request, not at start.
const loadNodeRoute = loadOnce(() => import("./node-route"));

/** The methods a route file may export (Next's HTTP_METHODS). */
const METHODS = new Set(["GET", "HEAD", "OPTIONS", "POST", "PUT", "DELETE", "PATCH"]);

/**
 * The JSON API answered by server.ts on the raw Node request, without entering Next (issue 26):
 * the route files of app/api stay the contract's table of contents and its implementation (and
 * what `next dev` serves); here each request finds its route file as Next would (api-router.ts),
 * and the method's handler runs as Next would run it: HEAD by GET when the file has no HEAD, an
 * OPTIONS answered with `Allow`, an empty 405 for a method the file does not export. A route()
 * operation runs through nodeRoute (the body as a Node stream, a JSON result written straight to
 * the socket); any other handler gets a web Request whose body is read only if it asks.
 *
 * `dispatch` returns undefined for what Next must answer: no route file, or one `nextOwns`.
 */
export function apiDispatcher(files: RouteFile[], nextOwns: (template: string) => boolean) {
  const match = apiRouter(files);
  const modules = new Map<string, Promise<RouteModule>>();
  const operations = new WeakMap<Handler, NodeHandler>();

  const load = (template: string, loader: () => Promise<unknown>) => {
    let loaded = modules.get(template);
    if (!loaded) {
      loaded = loader() as Promise<RouteModule>;
      modules.set(template, loaded);
    }
    return loaded;
  };

  const operationOf = async (handler: Handler) => {
    let operation = operations.get(handler);
    if (!operation) {
      const { nodeRoute } = await loadNodeRoute();
      operation = nodeRoute(handler.endpoint!);
      operations.set(handler, operation);
    }
    return operation;
  };

  return function dispatch(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> | undefined {
    const found = match(pathname);
    if (!found || nextOwns(found.template)) return undefined;
    return (async () => {
      const method = req.method ?? "GET";
      const mod = await load(found.template, found.load);
      const handler = METHODS.has(method) ? (mod[method] ?? (method === "HEAD" ? mod.GET : undefined)) : undefined;
      if (!handler) {
        const allow = allowed(mod);
        // No body, as Next answers: an OPTIONS without a handler is a 204, any other method a 405.
        return writeAnswer(res, method === "OPTIONS" ? 204 : 405, { Allow: allow });
      }
      // Only route()'s catch-alls have array parameters, and none is a route() operation.
      if (handler.endpoint) return (await operationOf(handler))(req, res, found.params as Record<string, string>);
      const { sendError, sendResponse, toWebRequest } = await loadNodeRoute();
      try {
        const response = await handler(webRequest(req, toWebRequest), { params: Promise.resolve(found.params) });
        await sendResponse(res, response, method);
      } catch (error) {
        await sendError(res, method, error);
      }
    })();
  };
}

/** Next's automatic `Allow`: the methods exported, HEAD where GET is, and OPTIONS, sorted. */
function allowed(mod: RouteModule): string {
  const methods = new Set([...METHODS].filter((m) => typeof mod[m] === "function"));
  if (methods.has("GET")) methods.add("HEAD");
  methods.add("OPTIONS");
  return [...methods].sort().join(", ");
}

/** A web Request whose body is taken from the socket only when the handler reads it. */
function webRequest(req: IncomingMessage, toWebRequest: (req: IncomingMessage) => Request): Request {
  const request = toWebRequest(req);
  if (req.method === "GET" || req.method === "HEAD") return request;
  return new Request(request, { body: lazyBody(req), duplex: "half" } as RequestInit);
}

/**
 * The request's bytes as a web stream that pulls nothing before its first read. Left unread or
 * cancelled, the request is never cut: what remains is drained within bounds once the answer is
 * written (answer-early.ts).
 */
function lazyBody(req: IncomingMessage): ReadableStream<Uint8Array> {
  let chunks: AsyncIterator<Buffer> | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        chunks ??= req.iterator({ destroyOnReturn: false });
        const { done, value } = await chunks.next();
        if (done) controller.close();
        else controller.enqueue(new Uint8Array(value.buffer, value.byteOffset, value.length));
      },
      async cancel() {
        await chunks?.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}
