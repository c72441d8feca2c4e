import "server-only";
import { loadOnce } from "../boot/load-once";
import type { NodeHandler } from "./node-route";

/**
 * A handler of server.ts whose module, and the packages under it, load with the first request it
 * serves rather than at start (issue 26: the start waited on tus, zip, multipart, XML and OAuth2
 * code that most processes never run). The build splits each such module into a chunk of its own.
 */
export function lazyHandler(load: () => Promise<NodeHandler>): NodeHandler {
  const handler = loadOnce(load);
  return async (req, res, params) => (await handler())(req, res, params);
}
