import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { prepareDownloadById } from "../downloads/prepare-download";
import { openBlob } from "../downloads/send-blob";
import { resolveDavPath } from "./dav-path";
import { notFoundUnless } from "./dav-response";
import { resourceOf } from "./dav-resources";

/**
 * GET and HEAD of a file: the download of the API (download right, Range, If-None-Match,
 * If-Range, the download event), its ETag the MD5. Collections have no content here (405).
 */
export async function get(ctx: AuthedCtx, req: IncomingMessage, res: ServerResponse, segments: string[]): Promise<void> {
  const method = req.method ?? "GET";
  const target = await resolveDavPath(ctx, segments);
  const resource = notFoundUnless(resourceOf(target), target);
  if (resource.kind !== "file") throw new AppError("method_not_allowed", "A collection has no content to GET; use PROPFIND", undefined, { Allow: "OPTIONS, PROPFIND, PROPPATCH, MKCOL, DELETE, COPY, MOVE, LOCK, UNLOCK" });
  const header = (name: string) => {
    const value = req.headers[name];
    return (Array.isArray(value) ? value[0] : value) ?? null;
  };
  const prepared = await prepareDownloadById(ctx, resource.version.id, false, {
    method,
    range: header("range"),
    ifNoneMatch: header("if-none-match"),
    ifRange: header("if-range"),
    info: ctx.request,
  });
  const blob = prepared.body ? await openBlob(prepared.body.blobId, prepared.body.range) : null;
  res.writeHead(prepared.status, prepared.headers);
  if (!blob) {
    res.end();
    await prepared.settle?.(true);
    return;
  }
  const complete = await blob.send(res);
  await prepared.settle?.(complete);
}
