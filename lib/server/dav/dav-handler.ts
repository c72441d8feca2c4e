import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import { getDb } from "@/db";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { requestInfo } from "../http/request-info";
import { toWebRequest } from "../http/node-route";
import { authenticateDav } from "./dav-auth";
import { davSegments, type DavTarget } from "./dav-path";
import { sendDavError } from "./dav-response";
import { copyOrMove } from "./copymove";
import { del } from "./delete";
import { get } from "./get";
import { mkcol } from "./mkcol";
import { DAV_METHODS, options } from "./options";
import { propfind } from "./propfind";
import { proppatch } from "./proppatch";
import { put } from "./put";
import { lock } from "./lock";
import { unlock } from "./unlock";
import { assertIfHeader, assertTokens, parseIf } from "./dav-locks";
import { resolveDavPath } from "./dav-path";

/** Checks run before a change: lock tokens and If headers (class 2) plug in here. */
export type AssertWritable = (target: DavTarget) => Promise<void>;

/**
 * WebDAV at /dav/ (api.md, "WebDAV and object storage"), answered on the raw Node request by
 * server.ts: one service per method in lib/server/dav, all on the services the API uses.
 * A body the handler did not read (a refusal before or while reading it) is drained within
 * bounds once the answer is written (answer-early.ts), never read without limit nor cut first.
 */
export async function davHandler(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const method = (req.method ?? "GET").toUpperCase();
  try {
    // A fragment is never part of a request target: one sent anyway names nothing here.
    if (req.url?.includes("#")) throw new AppError("invalid_request", "A request target may not contain a fragment (#)");
    const url = new URL(req.url ?? "/", "http://localhost");
    const segments = davSegments(url.pathname);
    if (method === "OPTIONS") {
      options(res);
      return;
    }
    const request = toWebRequest(req, url);
    const info = requestInfo(request);
    const db = await getDb();
    const actor = await authenticateDav(db, req.headers.authorization, method, info, new URL(request.url));
    const ctx: AuthedCtx = { db, actor, request: info };
    // Changes: the If header holds for the request target (412), evaluated once; then every lock
    // covering each resource changed must be the caller's with its token submitted (423).
    const ifHeader = req.headers.if;
    const lists = parseIf(Array.isArray(ifHeader) ? ifHeader.join(" ") : ifHeader);
    let ifChecked = false;
    const writable: AssertWritable = async (target) => {
      if (!ifChecked) {
        await assertIfHeader(ctx, lists, await resolveDavPath(ctx, segments));
        ifChecked = true;
      }
      await assertTokens(ctx, lists, target);
    };
    switch (method) {
      case "PROPFIND":
        return await propfind(ctx, req, res, segments);
      case "PROPPATCH":
        return await proppatch(ctx, req, res, segments, writable);
      case "GET":
      case "HEAD":
        return await get(ctx, req, res, segments);
      case "PUT":
        return await put(ctx, req, res, segments, writable);
      case "MKCOL":
        return await mkcol(ctx, req, res, segments, writable);
      case "DELETE":
        return await del(ctx, res, segments, writable);
      case "LOCK":
        return await lock(ctx, req, res, segments);
      case "UNLOCK":
        return await unlock(ctx, req, res, segments);
      case "COPY":
      case "MOVE":
        return await copyOrMove(ctx, req, res, segments, method === "MOVE", writable);
      default:
        throw new AppError("method_not_allowed", `Method ${method} is not supported here`, undefined, { Allow: DAV_METHODS });
    }
  } catch (error) {
    await sendDavError(res, method, error);
  }
}
