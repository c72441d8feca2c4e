import "server-only";
import type { ServerResponse } from "node:http";
import { sendEmpty } from "./dav-response";

export const DAV_METHODS = "OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, PROPPATCH, MKCOL, COPY, MOVE, LOCK, UNLOCK";

/** OPTIONS: class 1 and 2 (RFC 4918, 18), the methods, and the Microsoft hint some clients need. */
export function options(res: ServerResponse): void {
  sendEmpty(res, 200, { DAV: "1, 2", Allow: DAV_METHODS, "MS-Author-Via": "DAV", "Accept-Ranges": "bytes" });
}
